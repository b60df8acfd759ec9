import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `GET /cache/slow` of the FastAPI server for one test's key: counted as it arrives, answered
/// (`max-age=600`, the body naming its place in the order of arrival) only once the test
/// releases the key.
private struct HeldRoute: Request, RequestConfiguration {
    @Query("key") var key = ""
    var base = FastAPIServer.url ?? URL(string: "http://127.0.0.1:9")!
    var path: String { "cache/slow" }
    var method: HTTPMethod { .get }
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    var options: RequestOptions { RequestOptions(timeout: 90) }

    /// What a call received: the arrival the server answered, and the cache's `Cache-Status`
    /// when the cache built the response.
    struct Served: Equatable {
        var served: Int
        var cacheStatus: String?
    }

    func response(from object: Data, urlResponse: URLResponse) throws -> Served {
        struct Body: Decodable { var served: Int }
        let status = (urlResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Cache-Status")
        return Served(served: try JSONDecoder().decode(Body.self, from: object).served, cacheStatus: status)
    }

    /// Starts `count` calls at once through `session`.
    func start(_ count: Int, through session: Session) -> [Task<Served, any Error>] {
        (0..<count).map { _ in Task { try await response(using: session) } }
    }
}

/// Collapsing (`collapsesRequests` of ``HTTPCache/init(store:collapsesRequests:answersStreamsAndDownloads:)``) over
/// real HTTP, on the suite's transport.
///
/// The server holds each answer until the test releases it, after the test has seen the state
/// it checks (every call waiting for the first, or every request arrived): what reaches the
/// server then depends on the cache alone, not on how fast the machine is.
@Suite(
    "HTTP cache: collapsing identical requests against a real server",
    .enabled(if: FastAPIServer.url != nil, FastAPIServer.skipReason))
struct CollapsingCachingTests {
    private static let calls = 4

    @Test("With collapsesRequests, identical GETs at once send one request, and every call gets its body")
    func collapsed() async throws {
        let key = UUID().uuidString
        let cache = HTTPCache(collapsesRequests: true)
        let session = Session(transport: TestTransport.make(), interceptors: [cache])
        let calls = HeldRoute(key: key).start(Self.calls, through: session)
        let waiting = await eventually { cache.flights.waiting == Self.calls - 1 }
        try await CacheRoute.release(key)
        #expect(waiting, "all but the first call wait for its request")
        var answers: [HeldRoute.Served] = []
        for call in calls { answers.append(try await call.value) }
        #expect(answers.map(\.served) == Array(repeating: 1, count: Self.calls), "\(answers)")
        #expect(answers.filter { $0.cacheStatus == nil }.count == 1, "the first call's answer is the server's")
        #expect(
            answers.filter { $0.cacheStatus == "APIKit; fwd=miss; collapsed" }.count == Self.calls - 1, "\(answers)")
        #expect(try await CacheRoute.stats(key).arrivals == 1)
    }

    @Test("Without collapsesRequests, each of the identical GETs sends its own request")
    func notCollapsed() async throws {
        let key = UUID().uuidString
        let session = Session(transport: TestTransport.make(), interceptors: [HTTPCache()])
        let calls = HeldRoute(key: key).start(Self.calls, through: session)
        // Nothing can be stored before the release: every call misses and goes to the server.
        let arrived = try await Self.arrivals(of: key, reach: Self.calls)
        try await CacheRoute.release(key)
        #expect(arrived, "every call's request reached the server")
        var answers: [HeldRoute.Served] = []
        for call in calls { answers.append(try await call.value) }
        #expect(Set(answers.map(\.served)) == Set(1...Self.calls), "\(answers)")
        #expect(answers.allSatisfy { $0.cacheStatus == nil })
        #expect(try await CacheRoute.stats(key).arrivals == Self.calls)
    }

    /// Whether the server counts `count` arrivals for `key` within 120 s, asked every 20 ms: a
    /// wait for a state, like ``eventually(_:)``, for a count only the server knows.
    private static func arrivals(of key: String, reach count: Int) async throws -> Bool {
        for _ in 0..<6_000 {
            if try await CacheRoute.stats(key).arrivals >= count { return true }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        return false
    }
}
