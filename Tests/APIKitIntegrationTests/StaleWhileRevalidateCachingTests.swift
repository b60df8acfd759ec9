import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `GET /cache/swr` of the FastAPI server for one test's key: `max-age` and the version (in the
/// `ETag` and the body) as the test last set them, `stale-while-revalidate=600`.
struct RevalidatedRoute: Request, RequestConfiguration {
    @Query("key") var key = ""
    var base = FastAPIServer.url ?? URL(string: "http://127.0.0.1:9")!
    var path: String { "cache/swr" }
    var method: HTTPMethod { .get }
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    var options: RequestOptions { RequestOptions(timeout: 30) }

    /// What a call received: the server's count of full answers and the version when it made
    /// the body, and the cache's `Cache-Status`, when the cache built the response.
    struct Served: Equatable {
        var served: Int
        var version: Int
        var cacheStatus: String?

        /// Whether the cache answered with a stale response while validating it.
        var isStaleWhileRevalidating: Bool {
            cacheStatus.map { $0.hasPrefix("APIKit; hit; ttl=") && $0.hasSuffix("; detail=stale-while-revalidate") }
                ?? false
        }

        /// Whether the cache answered with a fresh response, without asking the server.
        var isFreshHit: Bool {
            cacheStatus.map { $0.hasPrefix("APIKit; hit; ttl=") && !$0.contains("detail=") } ?? false
        }
    }

    func response(from object: Data, urlResponse: URLResponse) throws -> Served {
        struct Body: Decodable {
            var served: Int
            var version: Int
        }
        let body = try JSONDecoder().decode(Body.self, from: object)
        let status = (urlResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Cache-Status")
        return Served(served: body.served, version: body.version, cacheStatus: status)
    }
}

/// `POST /cache/swr`: what `GET /cache/swr` answers for the key from now on, and whether the
/// server holds its validations (requests with `If-None-Match`) until ``CacheRoute/release(_:)``.
struct RevalidatedRouteChange: Request, RequestConfiguration {
    @Query("key") var key = ""
    @Query("version") var version = 1
    @Query("max_age") var maxAge = 0
    @Query("hold") var hold = false
    var base = FastAPIServer.url ?? URL(string: "http://127.0.0.1:9")!
    var path: String { "cache/swr" }
    var method: HTTPMethod { .post }
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    func response(from object: Data, urlResponse: URLResponse) throws -> Data { object }

    /// Sends the change on a session without a cache.
    func send() async throws {
        _ = try await response(using: Session(transport: TestTransport.make()))
    }
}

/// `stale-while-revalidate` (RFC 5861 §3) over real HTTP, on the suite's transport: a stale
/// response answers at once and one validation in the background reaches the server.
///
/// The stored responses have `max-age=0`: stale as soon as they are stored, on any clock, so the
/// tests never wait for time to pass; the window of 600 s is wider than any run. The server
/// holds the validation until the test releases it, and the test waits for it to end with the
/// cache's own hook, never for a time.
@Suite(
    "HTTP cache: stale-while-revalidate against a real server",
    .enabled(if: FastAPIServer.url != nil, FastAPIServer.skipReason))
struct StaleWhileRevalidateCachingTests {
    @Test("Stale calls are answered at once while one validation reaches the server; its new response answers next")
    func changed() async throws {
        let key = UUID().uuidString
        let cache = HTTPCache()
        let session = Session(transport: TestTransport.make(), interceptors: [cache])
        let route = RevalidatedRoute(key: key)
        #expect(try await route.response(using: session) == .init(served: 1, version: 1, cacheStatus: nil))
        // The resource changes; its validation will wait at the server until released.
        try await RevalidatedRouteChange(key: key, version: 2, maxAge: 600, hold: true).send()
        var stale: [RevalidatedRoute.Served] = []
        for _ in 0..<3 { stale.append(try await route.response(using: session)) }
        let validations = cache.revalidations.withLock { $0.count }
        try await CacheRoute.release(key)
        #expect(stale.allSatisfy { $0.served == 1 && $0.version == 1 && $0.isStaleWhileRevalidating }, "\(stale)")
        #expect(validations == 1, "the three stale calls share one validation")
        await cache.revalidationsFinished()
        #expect(try await CacheRoute.stats(key) == .init(full: 2, notModified: 0, conditional: 1))
        let refreshed = try await route.response(using: session)
        #expect(refreshed.served == 2 && refreshed.version == 2 && refreshed.isFreshHit, "\(refreshed)")
        #expect(try await CacheRoute.stats(key) == .init(full: 2, notModified: 0, conditional: 1))
    }

    @Test("A 304 to the background validation freshens the stored response: it answers next, fresh")
    func notModified() async throws {
        let key = UUID().uuidString
        let cache = HTTPCache()
        let session = Session(transport: TestTransport.make(), interceptors: [cache])
        let route = RevalidatedRoute(key: key)
        #expect(try await route.response(using: session) == .init(served: 1, version: 1, cacheStatus: nil))
        // The same version, now fresh for 600 s: the validation is answered 304 with that.
        try await RevalidatedRouteChange(key: key, version: 1, maxAge: 600).send()
        let stale = try await route.response(using: session)
        #expect(stale.served == 1 && stale.isStaleWhileRevalidating, "\(stale)")
        await cache.revalidationsFinished()
        #expect(try await CacheRoute.stats(key) == .init(full: 1, notModified: 1, conditional: 1))
        let fresh = try await route.response(using: session)
        #expect(fresh.served == 1 && fresh.isFreshHit, "\(fresh)")
        #expect(try await CacheRoute.stats(key) == .init(full: 1, notModified: 1, conditional: 1))
    }
}
