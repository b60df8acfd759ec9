import Foundation
import Testing

@testable import APIKit

/// Requests whose fields are all `@Header`s and `@Query`/`@JSON` over the common value types
/// are written straight from the field plan (``DirectWriting``). These pin that such types do
/// take that path, and that every check fails there as it does through Mirror: `urlRequest`
/// and `buildError` build each case both ways and require the same request or error.
@Suite("direct writing from the field plan: same requests and errors as Mirror")
struct DirectWritingTests {
    struct Common: RequestConfiguration, Sendable {
        @Header("Authorization") var authorization: String? = "Bearer t"
        @Header("X-Absent") var absent: String? = nil
        @Query("page") var page = 2
        @Query("tags") var tags = ["swift", "linux"]
        @Query("sort") var sort: String? = nil
        @Query("active") var active = true
        @Query("limit") var limit: Int? = 10
        @Query("q") var q = "a b&c"
        @JSON("title") var title = "Notes \"1\""
        @JSON("count") var count = 3
        @JSON("ratio") var ratio = 0.5
        @JSON("draft") var draft: Bool? = false
        @JSON("note") var note: String? = nil
        @JSON("labels") var labels: [String]? = ["x"]
    }

    struct WithForm: RequestConfiguration, Sendable {
        @Header("X-A") var a: String? = "1"
        @Field("name") var name = "n"
    }

    struct WithDate: RequestConfiguration, Sendable {
        @Query("since") var since = Date(timeIntervalSince1970: 0)
    }

    @Test("the common wrappers are written directly; any other field type keeps the general path")
    func takesTheDirectPath() throws {
        let direct = try #require(FieldPlan.plan(for: Common())?.direct)
        #expect(direct.headers.count == 2)
        #expect(direct.query.count == 6)
        #expect(direct.json.count == 6)
        #expect(FieldPlan.plan(for: WithForm())?.direct == nil)
        #expect(FieldPlan.plan(for: WithDate())?.direct == nil)
    }

    @Test("query, headers and body are the general path's, with every strategy")
    func sameRequest() throws {
        let request = try urlRequest(Common(), method: .post)
        #expect(request.percentEncodedQuery == "page=2&tags=swift&tags=linux&active=true&limit=10&q=a%20b%26c")
        #expect(request.header("Authorization") == "Bearer t")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.bodyText == #"{"title":"Notes \"1\"","count":3,"ratio":0.5,"draft":false,"labels":["x"]}"#)
        let strategies: [EncodingStrategy] = [
            .nils(.empty), .nils(.null), .bools(.numeric), .arrays(.brackets), .arrays(.commaSeparated),
            .arrays(.indexed),
        ]
        for strategy in strategies {
            _ = try urlRequest(Common(), method: .post, strategy: strategy)
        }
    }

    struct OnlyNilJSON: RequestConfiguration, Sendable {
        @Header("Content-Type") var contentType: String? = "application/vnd.api+json"
        @Header("accept") var accept: String? = "text/plain"
        @JSON("a") var a: Int? = nil
    }

    @Test("a nil member still makes a JSON body; declared Content-Type and Accept win")
    func nilMemberAndDeclaredHeaders() throws {
        let request = try urlRequest(OnlyNilJSON(), method: .put)
        #expect(request.bodyText == "{}")
        #expect(request.header("Content-Type") == "application/vnd.api+json")
        #expect(request.header("Accept") == "text/plain")
    }

    struct DuplicateHeader: RequestConfiguration, Sendable {
        @Header("X-Id") var first: String? = "1"
        @Header("X-Skipped") var skipped: String? = nil
        @Header("x-id") var second: String? = "2"
    }

    struct DuplicateNilHeader: RequestConfiguration, Sendable {
        @Header("X-Id") var first: String? = nil
        @Header("x-id") var second: String? = "2"
    }

    struct InvalidHeaders: RequestConfiguration, Sendable {
        @Header("Bad Name") var name: String? = "v"
        @Header("X-Value") var value: String? = "a\r\nb"
    }

    struct DuplicateKey: RequestConfiguration, Sendable {
        @JSON("id") var first: Int? = nil
        @JSON("name") var name = "n"
        @JSON("id") var second = "x"
    }

    struct NotFinite: RequestConfiguration, Sendable {
        @JSON("ok") var ok = 1
        @JSON("ratio") var ratio = Double.nan
    }

    @Test("header, body and path errors are the general path's")
    func sameErrors() throws {
        #expect(
            buildError(DuplicateHeader()).map(String.init(describing:))
                == String(describing: BuildError.duplicateHeader("x-id", fields: ["first", "second"])))
        #expect(buildError(DuplicateNilHeader()) == nil)
        #expect(
            buildError(InvalidHeaders()).map(String.init(describing:))
                == String(describing: BuildError.invalidHeaderName("Bad Name", field: "name")))
        #expect(
            buildError(DuplicateKey(), method: .post).map(String.init(describing:))
                == String(describing: BuildError.duplicateBodyKey("id", fields: ["first", "second"])))
        guard case .valueEncodingFailed(let field, let key, _) = buildError(NotFinite(), method: .post) else {
            Issue.record("a NaN member must fail to encode")
            return
        }
        #expect(field == "ratio" && key == "ratio")
        #expect(buildError(Common(), path: "items/{id}") != nil)
        #expect(buildError(Common(), method: HTTPMethod(rawValue: "BAD METHOD")) != nil)
    }

    /// Keys chosen per value: the checks made on the first value must not cover the others.
    struct DynamicKeys: RequestConfiguration, Sendable {
        @Header var first: String?
        @Header var second: String?
        @JSON var a: Int
        @JSON var b: String?

        init(headers: (String, String), keys: (String, String)) {
            _first = Header(wrappedValue: "1", headers.0)
            _second = Header(wrappedValue: "2", headers.1)
            _a = JSON(wrappedValue: 1, keys.0)
            _b = JSON(wrappedValue: nil, keys.1)
        }
    }

    @Test("keys checked when the plan is made count only for the same strings; other keys are checked in full")
    func checkedKeysAreIdentities() throws {
        // Strings built at run time, so that equal keys are distinct strings.
        func text(_ parts: String...) -> String { parts.joined() }
        let valid = DynamicKeys(headers: (text("X-", "A"), text("X-", "B")), keys: (text("a"), text("b")))
        let plan = try #require(FieldPlan.plan(for: valid)?.direct)
        #expect(plan.checkedHeaderNames != nil)
        #expect(plan.checkedJSONKeys != nil)
        #expect(buildError(valid, method: .post) == nil)
        let sameText = DynamicKeys(headers: (text("X-", "A"), text("X-", "B")), keys: (text("a"), text("b")))
        let request = try urlRequest(sameText, method: .post)
        #expect(request.header("X-A") == "1" && request.header("X-B") == "2")
        #expect(request.bodyText == #"{"a":1}"#)
        let duplicates = DynamicKeys(headers: (text("X-", "A"), text("x-", "a")), keys: (text("k"), text("k")))
        #expect(
            buildError(duplicates, method: .post).map(String.init(describing:))
                == String(describing: BuildError.duplicateBodyKey("k", fields: ["a", "b"])))
        let headerDuplicates = DynamicKeys(headers: (text("X-", "A"), text("x-", "a")), keys: (text("a"), text("b")))
        #expect(
            buildError(headerDuplicates, method: .post).map(String.init(describing:))
                == String(describing: BuildError.duplicateHeader("x-a", fields: ["first", "second"])))
        let invalid = DynamicKeys(headers: (text("Bad ", "Name"), text("X-", "B")), keys: (text("a"), text("b")))
        #expect(
            buildError(invalid, method: .post).map(String.init(describing:))
                == String(describing: BuildError.invalidHeaderName("Bad Name", field: "first")))
        let contentType = DynamicKeys(
            headers: (text("content-", "type"), text("X-", "B")), keys: (text("a"), text("b")))
        #expect(try urlRequest(contentType, method: .post).header("Content-Type") == "1")
    }
}
