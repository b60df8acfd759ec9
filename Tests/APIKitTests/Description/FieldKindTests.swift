import Foundation
import Testing

@testable import APIKit

/// Every kind the serializer reads in place has a wrapper type it is the reading of, and a
/// configuration with such a field gives, read in place, the bytes the Mirror walk gives
/// (`urlRequest` builds both ways and requires the same request). A kind added to ``FieldKind``
/// without a twin here fails `everyKindHasATwin`; the serializer's switches over kinds have no
/// `default:`, so a kind without its reading does not compile.
@Suite("FieldKind: every in-place kind has its wrapper, its key and its Mirror twin")
struct FieldKindTests {
    struct HeaderField: RequestConfiguration, Sendable { @Header("X-K") var value: String? = "v" }
    struct QueryString: RequestConfiguration, Sendable { @Query("k") var value = "a b" }
    struct QueryInt: RequestConfiguration, Sendable { @Query("k") var value = -7 }
    struct QueryBool: RequestConfiguration, Sendable { @Query("k") var value = true }
    struct QueryStrings: RequestConfiguration, Sendable { @Query("k") var value = ["a", "b&c"] }
    struct QueryOptionalString: RequestConfiguration, Sendable { @Query("k") var value: String? = "s" }
    struct QueryOptionalInt: RequestConfiguration, Sendable { @Query("k") var value: Int? = 3 }
    struct QueryOptionalBool: RequestConfiguration, Sendable { @Query("k") var value: Bool? = false }
    struct JSONString: RequestConfiguration, Sendable { @JSON("k") var value = "\"q\"" }
    struct JSONInt: RequestConfiguration, Sendable { @JSON("k") var value = 42 }
    struct JSONBool: RequestConfiguration, Sendable { @JSON("k") var value = true }
    struct JSONDouble: RequestConfiguration, Sendable { @JSON("k") var value = 0.25 }
    struct JSONOptionalString: RequestConfiguration, Sendable { @JSON("k") var value: String? = "s" }
    struct JSONOptionalInt: RequestConfiguration, Sendable { @JSON("k") var value: Int? = 1 }
    struct JSONOptionalBool: RequestConfiguration, Sendable { @JSON("k") var value: Bool? = nil }
    struct JSONOptionalDouble: RequestConfiguration, Sendable { @JSON("k") var value: Double? = 1.5 }
    struct JSONOptionalStrings: RequestConfiguration, Sendable { @JSON("k") var value: [String]? = ["x"] }
    struct FieldString: RequestConfiguration, Sendable { @Field("k") var value = "a+b" }
    struct FieldInt: RequestConfiguration, Sendable { @Field("k") var value = 5 }
    struct FieldBool: RequestConfiguration, Sendable { @Field("k") var value = false }
    struct FieldOptionalString: RequestConfiguration, Sendable { @Field("k") var value: String? = "o" }
    struct FieldOptionalInt: RequestConfiguration, Sendable { @Field("k") var value: Int? = nil }
    struct PathString: RequestConfiguration, Sendable { @PathSegment("id") var value = "a/b" }
    struct PathInt: RequestConfiguration, Sendable { @PathSegment("id") var value = 9 }

    /// Each in-place kind, the wrapper type it reads, and a request with one such field, built
    /// both ways.
    static let twins: [(kind: FieldKind, wrapper: Any.Type, build: @Sendable () throws -> URLRequest)] = [
        (.header, Header.self, { try urlRequest(HeaderField()) }),
        (.queryString, Query<String>.self, { try urlRequest(QueryString()) }),
        (.queryInt, Query<Int>.self, { try urlRequest(QueryInt()) }),
        (.queryBool, Query<Bool>.self, { try urlRequest(QueryBool()) }),
        (.queryStrings, Query<[String]>.self, { try urlRequest(QueryStrings()) }),
        (.queryOptionalString, Query<String?>.self, { try urlRequest(QueryOptionalString()) }),
        (.queryOptionalInt, Query<Int?>.self, { try urlRequest(QueryOptionalInt()) }),
        (.queryOptionalBool, Query<Bool?>.self, { try urlRequest(QueryOptionalBool()) }),
        (.jsonString, JSON<String>.self, { try urlRequest(JSONString(), method: .post) }),
        (.jsonInt, JSON<Int>.self, { try urlRequest(JSONInt(), method: .post) }),
        (.jsonBool, JSON<Bool>.self, { try urlRequest(JSONBool(), method: .post) }),
        (.jsonDouble, JSON<Double>.self, { try urlRequest(JSONDouble(), method: .post) }),
        (.jsonOptionalString, JSON<String?>.self, { try urlRequest(JSONOptionalString(), method: .post) }),
        (.jsonOptionalInt, JSON<Int?>.self, { try urlRequest(JSONOptionalInt(), method: .post) }),
        (.jsonOptionalBool, JSON<Bool?>.self, { try urlRequest(JSONOptionalBool(), method: .post) }),
        (.jsonOptionalDouble, JSON<Double?>.self, { try urlRequest(JSONOptionalDouble(), method: .post) }),
        (.jsonOptionalStrings, JSON<[String]?>.self, { try urlRequest(JSONOptionalStrings(), method: .post) }),
        (.fieldString, Field<String>.self, { try urlRequest(FieldString(), method: .post) }),
        (.fieldInt, Field<Int>.self, { try urlRequest(FieldInt(), method: .post) }),
        (.fieldBool, Field<Bool>.self, { try urlRequest(FieldBool(), method: .post) }),
        (.fieldOptionalString, Field<String?>.self, { try urlRequest(FieldOptionalString(), method: .post) }),
        (.fieldOptionalInt, Field<Int?>.self, { try urlRequest(FieldOptionalInt(), method: .post) }),
        (.pathString, PathSegment<String>.self, { try urlRequest(PathString(), path: "items/{id}") }),
        (.pathInt, PathSegment<Int>.self, { try urlRequest(PathInt(), path: "items/{id}") }),
    ]

    @Test("every kind but .declared has a twin here: its wrapper type, read in place, and a request built both ways")
    func everyKindHasATwin() {
        let covered = Set(Self.twins.map(\.kind.rawValue))
        let inPlace = Set(FieldKind.allCases.filter { $0 != .declared }.map(\.rawValue))
        #expect(covered == inPlace, "kinds without a twin: \(inPlace.subtracting(covered).sorted())")
    }

    @Test("each twin's wrapper is read as its kind, with a key the plan can find")
    func wrapperReadsAsItsKind() {
        for twin in Self.twins {
            let reading = FieldKind.reading(twin.wrapper)
            #expect(reading.kind == twin.kind, "\(twin.wrapper)")
            #expect(reading.keyOffset != nil, "\(twin.wrapper)")
        }
    }

    @Test("each twin's request is the same read in place as through Mirror")
    func sameBothWays() throws {
        for twin in Self.twins {
            // urlRequest records an issue when the two roads differ
            _ = try twin.build()
        }
    }

    /// A keyed wrapper whose key is computed: its offset cannot be found.
    struct ComputedKey: KeyedWrapper {
        var wrappedValue: String
        var key: String { "computed" }
        var strategy: EncodingStrategy { .inherit }
        static var keyOffset: Int? { MemoryLayout<Self>.offset(of: \Self.key) }
        static var isJSONMember: Bool { false }
    }

    @Test("a wrapper whose key's offset cannot be found is read through what it declares, never at offset 0")
    func computedKeyIsDeclared() {
        #expect(ComputedKey.keyOffset == nil)
        let reading = FieldKind.reading(ComputedKey.self, as: .queryString)
        #expect(reading.kind == .declared)
        #expect(reading.keyOffset == nil)
    }
}
