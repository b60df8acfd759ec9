import Foundation
import Testing

@testable import APIKit

/// Fields that are `@Header`s, or `@Query`/`@JSON`/`@Field` over the common value types, are read
/// in place by the serializer (``FieldKind``); any other field declares its parameters per
/// request. These pin which fields are read in place, and that every check fails there as it does
/// through Mirror: `urlRequest` and `buildError` build each case both ways and require the same
/// request or error.
@Suite("fields read in place from the field plan: same requests and errors as Mirror")
struct InPlaceFieldTests {
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

    @Test("the common wrappers are read in place; any other field type declares its parameters")
    func takesTheDirectPath() throws {
        let plan = try #require(FieldPlan.plan(for: Common()))
        #expect(plan.readsInPlace)
        #expect(plan.headers.count == 2)
        #expect(plan.query.count == 6)
        #expect(plan.body.count == 6)
        #expect(FieldPlan.plan(for: WithForm())?.readsInPlace == true)
        let withDate = try #require(FieldPlan.plan(for: WithDate()))
        #expect(withDate.declaredFields == [0] && withDate.query.map(\.kind) == [.declared])
    }

    @Test("query, headers and body are the general path's, with every strategy")
    func sameRequest() throws {
        let request = try urlRequest(Common(), method: .post)
        #expect(request.percentEncodedQuery == "page=2&tags=swift&tags=linux&active=true&limit=10&q=a%20b%26c")
        #expect(request.header("Authorization") == "Bearer t")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.bodyText == #"{"title":"Notes \"1\"","count":3,"ratio":0.5,"draft":false,"labels":["x"]}"#)
        let strategies: [EncodingStrategy] = [
            .init(nils: .empty), .init(nils: .null), .init(bools: .numeric), .init(arrays: .brackets),
            .init(arrays: .commaSeparated),
            .init(arrays: .indexed),
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

    struct Interleaved: RequestConfiguration, Sendable {
        @Header("X-A") var a: String? = "1"
        @HeaderDict var more = ["X-B": "2"]
        @Header("X-C") var c: String? = "3"
        @Query("first") var first = 1
        @Query("since") var since = Date(timeIntervalSince1970: 0)
        @KeyQuery("flag") var flag = true
        @Query("last") var last = "z"
        @JSON("one") var one = 1
        @JSON("when") var when = Date(timeIntervalSince1970: 0)
        @JSON("three") var three: String? = "3"
        @JSON("ids") var ids = [1, 2]
    }

    struct InterleavedForm: RequestConfiguration, Sendable {
        @Field("a") var a = "x y"
        @Field("tags") var tags = ["p", "q"]
        @Field("b") var b: Int? = 2
        @Field("d") var d = 1.5
    }

    struct DuplicateAcrossKinds: RequestConfiguration, Sendable {
        @JSON("id") var inPlace = 1
        @JSON("id") var declared = [1]
    }

    struct DuplicateHeaderAcrossKinds: RequestConfiguration, Sendable {
        @Header("X-Id") var inPlace: String? = "1"
        @HeaderDict var declared = ["x-id": "2"]
    }

    struct ConflictAcrossKinds: RequestConfiguration, Sendable {
        @JSON("a") var a = 1
        @Field("tags") var tags = ["p"]
    }

    struct DeclaredFailure: RequestConfiguration, Sendable {
        @JSON("ok") var ok = 1
        @JSON("ratios") var ratios = [0.5, Double.nan]
    }

    @Test("fields read in place and declared fields are written in declaration order, and checked together")
    func interleaved() throws {
        let plan = try #require(FieldPlan.plan(for: Interleaved()))
        #expect(plan.headers.map(\.kind) == [.header, .declared, .header])
        #expect(plan.query.map(\.kind) == [.queryInt, .declared, .declared, .queryString])
        #expect(plan.body.map(\.kind) == [.jsonInt, .declared, .jsonOptionalString, .declared])
        let request = try urlRequest(Interleaved(), method: .post)
        #expect(request.percentEncodedQuery == "first=1&since=1970-01-01T00%3A00%3A00Z&flag&last=z")
        #expect(request.header("X-A") == "1" && request.header("X-B") == "2" && request.header("X-C") == "3")
        #expect(request.bodyText == #"{"one":1,"when":"1970-01-01T00:00:00Z","three":"3","ids":[1,2]}"#)
        let form = try urlRequest(InterleavedForm(), method: .post)
        #expect(form.bodyText == "a=x+y&tags=p&tags=q&b=2&d=1.5")
        #expect(
            buildError(DuplicateAcrossKinds(), method: .post).map(String.init(describing:))
                == String(describing: BuildError.duplicateBodyKey("id", fields: ["inPlace", "declared"])))
        #expect(
            buildError(DuplicateHeaderAcrossKinds()).map(String.init(describing:))
                == String(describing: BuildError.duplicateHeader("x-id", fields: ["inPlace", "declared"])))
        #expect(
            buildError(ConflictAcrossKinds(), method: .post).map(String.init(describing:))
                == String(describing: BuildError.conflictingBodies("a", "tags")))
        guard case .valueEncodingFailed(let field, let key, _) = buildError(DeclaredFailure(), method: .post) else {
            Issue.record("a NaN in a declared member must fail to encode")
            return
        }
        #expect(field == "ratios" && key == "ratios")
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
        let plan = try #require(FieldPlan.plan(for: valid))
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

/// A `@Query` or `@Field` key read in place is written as it is when it is the very string of the
/// value the plan was made from and needs no percent-encoding (``FieldPlan/Item/plainKey``); any
/// other key is percent-encoded, whatever the plan saw first.
@Suite("plain keys of fields read in place")
struct PlainKeyTests {
    /// Keys given per value, so that two values of one type have different keys.
    struct Keyed: RequestConfiguration, Sendable {
        @Query var page: Int
        @Field var name: String

        init(queryKey: String, formKey: String) {
            _page = Query(wrappedValue: 2, queryKey)
            _name = Field(wrappedValue: "n", formKey)
        }
    }

    struct Literal: RequestConfiguration, Sendable {
        @Query("page") var page = 2
        @Query("sort by") var sort = "name"
        @Field("full name") var name = "Ada L"
        @Field("age") var age = 36
    }

    @Test("the plan remembers only keys that need no escape")
    func remembered() throws {
        let plan = try #require(FieldPlan.plan(for: Literal()))
        #expect(plan.query.map { $0.plainKey != nil } == [true, false])
        #expect(plan.body.map { $0.plainKey != nil } == [false, true])
    }

    @Test("a key that differs from the plan's first value is escaped, in the query and in the form")
    func otherKeysAreEscaped() throws {
        let first = try urlRequest(Keyed(queryKey: "page", formKey: "name"), method: .post)
        #expect(first.percentEncodedQuery == "page=2" && first.bodyText == "name=n")
        let other = try urlRequest(Keyed(queryKey: "pa ge&x=1", formKey: "na me"), method: .post)
        #expect(other.percentEncodedQuery == "pa%20ge%26x%3D1=2" && other.bodyText == "na+me=n")
        // The same text in another string's storage is written the same.
        let copied = try urlRequest(
            Keyed(queryKey: String("xpage".dropFirst()), formKey: String("xname".dropFirst())), method: .post)
        #expect(copied.percentEncodedQuery == "page=2" && copied.bodyText == "name=n")
    }

    @Test("literal keys: plain ones as they are, others escaped")
    func literals() throws {
        let request = try urlRequest(Literal(), method: .post)
        #expect(request.percentEncodedQuery == "page=2&sort%20by=name")
        #expect(request.bodyText == "full+name=Ada+L&age=36")
    }
}
