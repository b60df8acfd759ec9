import Foundation
import Testing

@testable import APIKit

/// `nil` values are read in place by the serializer (``FieldKind``) or declared by their
/// wrapper; these pin that either way the request and the error are Mirror's — `urlRequest` and
/// `buildError` build every case through the plan and through Mirror and require the same result.
@Suite("nil fields: the same request through the plan as through Mirror")
struct NilFieldTests {
    struct AllNil: RequestConfiguration, Sendable {
        @Header("X-A") var a: String? = nil
        @Query("q") var q: String? = nil
        @Query("ids") var ids: [Int]? = nil
        @QueryDict var extra: [String: String]? = nil
        @JSON("title") var title: String? = nil
        @JSON("labels") var labels: [String]? = nil
    }

    @Test("nil headers, query items and JSON members send nothing, but the JSON body is still declared")
    func allNil() throws {
        let request = try urlRequest(AllNil(), method: .post)
        #expect(request.url?.absoluteString == "https://api.example.com/items")
        #expect(request.header("X-A") == nil)
        #expect(request.bodyText == "{}")
        #expect(request.header("Content-Type") == "application/json")
    }

    @Test("the request's .init(nils: .empty) and .init(nils: .null) still write nil query items and JSON members")
    func requestStrategyWritesNil() throws {
        let empty = try urlRequest(AllNil(), method: .post, strategy: .init(nils: .empty))
        #expect(empty.percentEncodedQuery == "q=&ids=")
        let null = try urlRequest(AllNil(), method: .post, strategy: .init(nils: .null))
        #expect(null.percentEncodedQuery == "q=null&ids=null")
        #expect(null.bodyText == #"{"title":null,"labels":null}"#)
    }

    struct FieldStrategies: RequestConfiguration, Sendable {
        @Query("kept", strategy: .init(nils: .empty)) var kept: Int? = nil
        @Query("dropped", strategy: .init(nils: .omit)) var dropped: Int? = nil
        @Query("inherits") var inherits: Int? = nil
        @Field("note", strategy: .init(nils: .null)) var note: String? = nil
        @Field("gone") var gone: String? = nil
    }

    @Test("a field's nil strategy wins over the request's, in both directions")
    func fieldStrategyWins() throws {
        let plain = try urlRequest(FieldStrategies(), method: .post)
        #expect(plain.percentEncodedQuery == "kept=")
        #expect(plain.bodyText == "note=null")
        let keeping = try urlRequest(FieldStrategies(), method: .post, strategy: .init(nils: .empty))
        #expect(keeping.percentEncodedQuery == "kept=&inherits=")
        #expect(keeping.bodyText == "note=null&gone=")
    }

    struct NilConflict: RequestConfiguration, Sendable {
        @JSON("a") var a: Int? = nil
        @Field("b") var b = 1
    }

    struct NilDuplicate: RequestConfiguration, Sendable {
        @JSON("id") var first = 1
        @JSON("id") var second: Int? = nil
    }

    struct NilBadPart: RequestConfiguration, Sendable {
        @Part("bad\u{01}name") var part: String? = nil
    }

    @Test("a nil body member still takes part in the declaration checks")
    func nilMembersAreChecked() {
        guard case .conflictingBodies("a", "b") = buildError(NilConflict(), method: .post) else {
            Issue.record("expected conflictingBodies(a, b)")
            return
        }
        guard case .duplicateBodyKey("id", fields: ["first", "second"]) = buildError(NilDuplicate(), method: .post)
        else {
            Issue.record("expected duplicateBodyKey(id)")
            return
        }
        guard case .invalidPartName("bad\u{01}name", field: "part") = buildError(NilBadPart(), method: .post) else {
            Issue.record("expected invalidPartName")
            return
        }
    }

    struct NilFile: RequestConfiguration, Sendable {
        @Part("title") var title = "t"
        @FilePart("file") var file: MultipartFile? = nil
    }

    @Test("a nil file part sends nothing unless the request's nil strategy writes a part")
    func nilFilePart() throws {
        let omitted = try urlRequest(NilFile(), method: .post)
        #expect(omitted.bodyText?.contains(#"name="file""#) == false)
        let empty = try urlRequest(NilFile(), method: .post, strategy: .init(nils: .empty))
        #expect(empty.bodyText?.contains(#"name="file""#) == true)
    }

    struct DoubleOptional: RequestConfiguration, Sendable {
        @Query("x") var x: Int?? = .some(nil)
        @JSON("y") var y: Int?? = .some(nil)
    }

    @Test("an Optional holding nil one level down is still nil")
    func nestedNil() throws {
        let request = try urlRequest(DoubleOptional(), method: .post)
        #expect(request.percentEncodedQuery == nil)
        #expect(request.bodyText == "{}")
    }
}
