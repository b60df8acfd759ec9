import APIKit
import Foundation
import Testing

// MARK: - Requests

/// A filter object for nested query and form values.
struct EchoFilter: Encodable, Sendable {
    var status = "open & ready"
    var tags = ["a b", "東京"]
}

/// Query items written with non-default strategies, per field and per request.
struct StrategyQueryRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>

    @Query("ids", strategy: .init(arrays: .brackets)) var ids = [1, 2]
    @Query("pos", strategy: .init(arrays: .indexed)) var positions = ["x", "y"]
    @Query("csv", strategy: .init(arrays: .commaSeparated)) var csv = ["a,b", "c"]
    @Query("word", strategy: .init(arrays: .commaSeparated)) var word = "p,q"
    @Query("filter") var filter = EchoFilter()
    @Query("dotted", strategy: .init(nesting: .dotted)) var dotted = ["k": 1]
    @Query("on") var on = true
    @Query("at") var at = Date(timeIntervalSince1970: 1_700_000_000.25)
    @Query("cursor") var cursor: String? = nil
    @Query("literal", strategy: .init(bools: .literal)) var literal = false

    var encodingStrategy: EncodingStrategy { .init(bools: .numeric, dates: .millisecondsSince1970, nils: .empty) }

    var base = HTTPBin.baseURL
    var path = "anything/strategies-query"
    var method: HTTPMethod = .get
    var configuration: Self { self }
}

/// A form body written with non-default strategies.
struct StrategyFormRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>

    @Field("filter", strategy: .init(nesting: .dotted)) var filter = EchoFilter()
    @Field("ids", strategy: .init(arrays: .commaSeparated)) var ids = [3, 4]
    @Field("on", strategy: .init(bools: .numeric)) var on = false
    @Field("at", strategy: .init(dates: .secondsSince1970)) var at = Date(timeIntervalSince1970: 1_700_000_000)
    @Field("gone", strategy: .init(nils: .null)) var gone: Int? = nil

    var base = HTTPBin.baseURL
    var path = "anything/strategies-form"
    var method: HTTPMethod = .post
    var configuration: Self { self }
}

/// A JSON body written with non-default strategies: what a JSON PATCH-style update sends.
struct StrategyJSONRequest: JSONDecodableRequest, RequestConfiguration {
    struct Body: Decodable, Sendable, Equatable {
        struct Inner: Decodable, Sendable, Equatable {
            var on: Int
            var at: String
        }

        var on: Int
        var at: Double
        var inner: Inner
        var gone: Int?
    }

    struct InnerValue: Encodable, Sendable {
        var on = true
        var at = Date(timeIntervalSince1970: 0.5)
    }

    typealias Response = Echo<Body>

    @JSON("on") var on = true
    @JSON("at", strategy: .init(dates: .secondsSince1970)) var at = Date(timeIntervalSince1970: 1_700_000_000.5)
    @JSON("inner") var inner = InnerValue()
    @JSON("gone", strategy: .init(nils: .null)) var gone: Int? = nil
    @JSON("skipped") var skipped: Int? = nil

    var encodingStrategy: EncodingStrategy { .init(bools: .numeric, dates: .iso8601WithFractionalSeconds) }

    var base = HTTPBin.baseURL
    var path = "anything/strategies-json"
    var method: HTTPMethod = .patch
    var configuration: Self { self }
}

// MARK: - Tests

@Suite("Encoding strategies through httpbin /anything", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct StrategyRoundTripTests {
    @Test("query strategies arrive as the server reads them (httpbin shows a[] keys literally)")
    func query() async throws {
        let echo = try await perform(StrategyQueryRequest()).get()

        #expect(echo.arg("ids[]") == .many(["1", "2"]))
        #expect(echo.arg("pos[0]") == .one("x"))
        #expect(echo.arg("pos[1]") == .one("y"))
        #expect(echo.arg("csv") == .one("a,b,c"))
        #expect(echo.arg("word") == .one("p,q"))
        #expect(echo.arg("filter[status]") == .one("open & ready"))
        #expect(echo.arg("filter[tags]") == .many(["a b", "東京"]))
        #expect(echo.arg("dotted.k") == .one("1"))
        #expect(echo.arg("on") == .one("1"))
        #expect(echo.arg("at") == .one("1700000000250"))
        #expect(echo.arg("cursor") == .one(""))
        #expect(echo.arg("literal") == .one("false"))
        #expect(echo.args.count == 12)
    }

    @Test("form strategies arrive as form fields")
    func form() async throws {
        let echo = try await perform(StrategyFormRequest()).get()

        #expect(echo.header("Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(echo.field("filter.status") == .one("open & ready"))
        #expect(echo.field("filter.tags") == .many(["a b", "東京"]))
        #expect(echo.field("ids") == .one("3,4"))
        #expect(echo.field("on") == .one("0"))
        #expect(echo.field("at") == .one("1700000000"))
        #expect(echo.field("gone") == .one("null"))
        #expect(echo.form.count == 6)
    }

    @Test("JSON strategies: numeric bools, epoch and fractional dates, an explicit null")
    func json() async throws {
        let echo = try await perform(StrategyJSONRequest()).get()

        #expect(echo.method == "PATCH")
        let body = try #require(echo.json, "httpbin saw no JSON body; data: \(echo.data)")
        #expect(
            body == .init(on: 1, at: 1_700_000_000.5, inner: .init(on: 1, at: "1970-01-01T00:00:00.500Z"), gone: nil))
        #expect(echo.data.contains(#""gone":null"#))
        #expect(!echo.data.contains("skipped"))
    }
}
