import Foundation
import Testing

@testable import APIKit

@Suite("EncodingStrategy: per field and per request")
struct EncodingStrategyTests {
    struct Config: RequestConfiguration, Sendable {
        @Query("ids", strategy: .init(arrays: .brackets)) var ids = [1, 2]
        @Query("since") var since = Date(timeIntervalSince1970: 0)
        @Query("open", strategy: .init(bools: .literal)) var open = true
        @Query("archived") var archived = false
        @Query("tags") var tags = ["x", "y"]
    }

    @Test("a field's strategy overrides the request's member by member; unstated members come from the request")
    func precedence() throws {
        #expect(
            try urlRequest(Config()).percentEncodedQuery
                == "ids%5B%5D=1&ids%5B%5D=2&since=1970-01-01T00%3A00%3A00Z&open=true&archived=false&tags=x&tags=y"
        )
        #expect(
            try urlRequest(
                Config(), strategy: .init(arrays: .commaSeparated, bools: .numeric, dates: .secondsSince1970)
            )
            .percentEncodedQuery == "ids%5B%5D=1&ids%5B%5D=2&since=0&open=true&archived=0&tags=x,y"
        )
    }

    struct Nils: RequestConfiguration, Sendable {
        @Query("a") var a: String? = nil
        @Query("b", strategy: .init(nils: .omit)) var b: Int? = nil
        @Query("c", strategy: .init(nils: .empty)) var c: Bool? = nil
        @Query("d", strategy: .init(nils: .null)) var d: Double? = nil
    }

    @Test("nil precedence: the field's nil strategy wins over the request's, in both directions")
    func nilPrecedence() throws {
        #expect(try urlRequest(Nils()).percentEncodedQuery == "c=&d=null")
        #expect(try urlRequest(Nils(), strategy: .init(nils: .null)).percentEncodedQuery == "a=null&c=&d=null")
        #expect(try urlRequest(Nils(), strategy: .init(nils: .empty)).percentEncodedQuery == "a=&c=&d=null")
        #expect(try urlRequest(Nils(), strategy: .init(nils: .omit)).percentEncodedQuery == "c=&d=null")
    }

    @Test("the initializer states only the members it names; overriding keeps the receiver's stated members")
    func statedMembers() {
        let strategy = EncodingStrategy(bools: .numeric, dates: .secondsSince1970, nils: .null)
        #expect(strategy.bools == .numeric && strategy.dates == .secondsSince1970 && strategy.nils == .null)
        #expect(strategy.arrays == nil && strategy.nesting == nil)
        #expect(EncodingStrategy() == .inherit && EncodingStrategy().isInherit && !strategy.isInherit)
        let merged = EncodingStrategy(arrays: .indexed, bools: .literal).overriding(strategy)
        #expect(merged == EncodingStrategy(arrays: .indexed, bools: .literal, dates: .secondsSince1970, nils: .null))
        #expect(EncodingStrategy.inherit.overriding(.defaults) == .defaults)
        #expect(EncodingStrategy.defaults.nesting == .brackets && EncodingStrategy.defaults.arrays == .repeatKey)
    }

    @Test("custom date strategies equal only themselves")
    func customEquality() {
        let custom = DateEncoding.custom { _ in "x" }
        #expect(custom == custom)
        #expect(custom != DateEncoding.custom { _ in "x" })
        #expect(Set([custom, custom, .custom { _ in "x" }]).count == 2)
        #expect(Set([DateEncoding.iso8601, .iso8601, .secondsSince1970]).count == 2)
    }

    @Test("strategies have readable descriptions")
    func descriptions() {
        #expect(
            "\(ArrayEncoding.commaSeparated) \(NestingEncoding.dotted) \(BoolEncoding.numeric)"
                == "commaSeparated dotted numeric")
        #expect("\(DateEncoding.millisecondsSince1970) \(NilEncoding.null)" == "millisecondsSince1970 null")
    }

    @propertyWrapper
    struct Timestamps: QueryProtocol, BodyProtocol {
        var wrappedValue: [Date]
        var queryParameters: [QueryParameter] {
            [
                QueryParameter(
                    key: "t", value: wrappedValue, strategy: .init(arrays: .commaSeparated, dates: .secondsSince1970))
            ]
        }
        var bodyParameters: [BodyParameter] {
            [
                BodyParameter(
                    key: "t", value: wrappedValue, encoding: .json, strategy: .init(dates: .millisecondsSince1970))
            ]
        }
    }

    @Test("your own wrappers carry a strategy in QueryParameter and BodyParameter")
    func ownWrappers() throws {
        struct Own: RequestConfiguration, Sendable {
            @Timestamps var times = [Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 2)]
        }
        let request = try urlRequest(Own(), method: .post)
        #expect(request.percentEncodedQuery == "t=1,2")
        #expect(request.bodyText == #"{"t":[1000,2000]}"#)
    }

    @Test("a request's strategy is used by makeURLRequest and perform alike")
    func requestRequirement() throws {
        struct Req: Request, RequestConfiguration {
            @Query("on") var on = true
            var base: URL { URL(string: "https://api.example.com")! }
            var path: String { "x" }
            var method: HTTPMethod { .get }
            var configuration: Self { self }
            var parser: RawDataParser { RawDataParser() }
            var encodingStrategy: EncodingStrategy { .init(bools: .numeric) }
        }
        #expect(try Req().makeURLRequest().url?.absoluteString == "https://api.example.com/x?on=1")
    }

    @Test("wrappers with strategies stay Equatable and Hashable")
    func wrapperEquality() {
        #expect(
            Query(wrappedValue: 1, "a", strategy: .init(bools: .numeric))
                == Query(wrappedValue: 1, "a", strategy: .init(bools: .numeric)))
        #expect(Query(wrappedValue: 1, "a", strategy: .init(bools: .numeric)) != Query(wrappedValue: 1, "a"))
        #expect(Set([Field(wrappedValue: 1, "a"), Field(wrappedValue: 1, "a")]).count == 1)
        #expect(JSON(wrappedValue: 1, "a", strategy: .init(nils: .null)).strategy.nils == .null)
    }

    /// Compiles only while the strategy types are `Sendable` and `Hashable`.
    private static func requireSendableHashable<T: Sendable & Hashable>(_: T.Type) {}

    @Test("the strategy types are Sendable and Hashable values")
    func sendable() {
        Self.requireSendableHashable(EncodingStrategy.self)
        Self.requireSendableHashable(ArrayEncoding.self)
        Self.requireSendableHashable(NestingEncoding.self)
        Self.requireSendableHashable(BoolEncoding.self)
        Self.requireSendableHashable(DateEncoding.self)
        Self.requireSendableHashable(NilEncoding.self)
        Self.requireSendableHashable(Query<Int>.self)
        #expect(MemoryLayout<EncodingStrategy>.size <= 16, "a strategy is copied into every parameter: keep it small")
    }
}
