import APIKit
import Foundation
import Testing

/// `Double` query values are written as Swift prints them (`1e-07`, `1e+21` sent as
/// `1e%2B21`); the DeclaringRequests article says so. This checks that a typical server reads
/// that text back as the same number: FastAPI's `float` query parameter (pydantic).
@Suite(
    "Query numbers reach a real server unchanged",
    .enabled(if: FastAPIServer.url != nil, FastAPIServer.skipReason))
struct QueryNumberTests {
    struct ParseFloat: JSONDecodableRequest, RequestConfiguration {
        struct Response: Decodable, Sendable { var value: Double }

        @Query("value") var value = 0.0
        var base: URL
        let path = "float"
        let method: HTTPMethod = .get
        var configuration: Self { self }
    }

    @Test(
        "FastAPI parses every Double APIKit writes — exponents included — as the same value",
        arguments: [
            0.1, 3.0, -0.0, 0.0001, 0.00009, 1e-7, 1e16, 1e21, -2.5e-300, 9007199254740992.0,
            Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, Double.pi,
        ])
    func roundTrip(_ value: Double) async throws {
        let base = try #require(FastAPIServer.url)
        let parsed = try await ParseFloat(value: value, base: base).response(using: Session())
        #expect(parsed.value.bitPattern == value.bitPattern, "\(value) came back as \(parsed.value)")
    }
}
