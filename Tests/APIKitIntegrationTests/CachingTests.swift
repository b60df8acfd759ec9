import APIKit
import APIKitTestSupport
import APIKitTestTime
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `/cache/…` route of the FastAPI server, for one test's `key`.
struct CacheRoute: Request, RequestConfiguration {
    var path: String
    @Query("key") var key: String = ""
    @Query("max_age") var maxAge: Int? = nil
    @Header("Accept-Language") var language: String? = nil
    var method: HTTPMethod = .get
    var base = FastAPIServer.url ?? URL(string: "http://127.0.0.1:9")!
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    var options: RequestOptions { RequestOptions(timeout: 30) }

    /// What a `GET` answered: the server's count of full answers when it made this body, and
    /// whether the body came from the cache.
    struct Served: Equatable {
        var served: Int
        var language: String?
        var fromCache: Bool
    }

    func response(from object: Data, urlResponse: URLResponse) throws -> Served {
        struct Body: Decodable {
            var served: Int?
            var language: String?
        }
        let body = object.isEmpty ? Body() : try JSONDecoder().decode(Body.self, from: object)
        return Served(served: body.served ?? 0, language: body.language, fromCache: urlResponse.isFromHTTPCache)
    }

    /// What the server counted for `key`.
    struct Stats: Decodable, Equatable {
        var full: Int
        var notModified: Int
        var conditional: Int
        /// Requests that reached `/cache/slow`, counted as they arrive.
        var arrivals = 0
        /// `HEAD` requests to `/cache/swr`.
        var heads = 0

        enum CodingKeys: String, CodingKey {
            case full
            case notModified = "not_modified"
            case conditional
            case arrivals
            case heads = "head"
        }
    }

    static func stats(_ key: String) async throws -> Stats {
        let route = CacheRoute(path: "cache/stats", key: key)
        let data = try await RawRoute(route: route).response(using: Session(transport: TestTransport.make()))
        return try JSONDecoder().decode(Stats.self, from: data)
    }

    /// Releases the requests of `key` that the server holds (`/cache/slow`, and `/cache/swr`'s
    /// held validations), and every later one.
    static func release(_ key: String) async throws {
        let route = CacheRoute(path: "cache/release", key: key, method: .post)
        _ = try await RawRoute(route: route).response(using: Session(transport: TestTransport.make()))
    }

    /// The route's raw body.
    struct RawRoute: Request {
        var route: CacheRoute
        var base: URL { route.base }
        var path: String { route.path }
        var method: HTTPMethod { route.method }
        var configuration: CacheRoute { route }
        var parser: RawDataParser { RawDataParser() }
        func response(from object: Data, urlResponse: URLResponse) throws -> Data { object }
    }
}

/// ``HTTPCache`` against a real server that counts what reaches it, over the suite's transport.
@Suite(
    "HTTP cache against a real server", .serialized,
    .enabled(if: FastAPIServer.url != nil, FastAPIServer.skipReason))
struct CachingTests {
    private static func session() -> Session {
        Session(transport: TestTransport.make(), interceptors: [HTTPCache()])
    }

    @Test("A fresh response is served from the cache: the server sees one request")
    func freshHit() async throws {
        let key = UUID().uuidString
        let session = Self.session()
        let route = CacheRoute(path: "cache/etag", key: key, maxAge: 60)
        #expect(try await route.response(using: session) == .init(served: 1, fromCache: false))
        #expect(try await route.response(using: session) == .init(served: 1, fromCache: true))
        #expect(try await CacheRoute.stats(key) == .init(full: 1, notModified: 0, conditional: 0))
    }

    @Test("A stale response with an ETag is validated: the server answers 304 and the stored body is served")
    func revalidation() async throws {
        let key = UUID().uuidString
        let session = Self.session()
        let route = CacheRoute(path: "cache/etag", key: key, maxAge: 0)
        #expect(try await route.response(using: session) == .init(served: 1, fromCache: false))
        #expect(try await route.response(using: session) == .init(served: 1, fromCache: true))
        #expect(try await route.response(using: session) == .init(served: 1, fromCache: true))
        #expect(try await CacheRoute.stats(key) == .init(full: 1, notModified: 2, conditional: 2))
    }

    @Test("Each Accept-Language is a variant of its own")
    func variants() async throws {
        let key = UUID().uuidString
        let session = Self.session()
        func route(_ language: String) -> CacheRoute {
            CacheRoute(path: "cache/vary", key: key, language: language)
        }
        #expect(try await route("en").response(using: session) == .init(served: 1, language: "en", fromCache: false))
        #expect(try await route("fr").response(using: session) == .init(served: 2, language: "fr", fromCache: false))
        #expect(try await route("en").response(using: session) == .init(served: 1, language: "en", fromCache: true))
        #expect(try await route("fr").response(using: session) == .init(served: 2, language: "fr", fromCache: true))
        #expect(try await CacheRoute.stats(key).full == 2)
    }

    @Test("Over URLSessionTransport the session's URLCache neither answers nor stores: the HTTPCache is the one cache")
    func noDoubleCaching() async throws {
        let key = UUID().uuidString
        let urlCache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = urlCache
        configuration.requestCachePolicy = .useProtocolCachePolicy
        let transport = URLSessionTransport(configuration: configuration)
        let session = Session(transport: transport, interceptors: [HTTPCache()])
        let route = CacheRoute(path: "cache/etag", key: key, maxAge: 60)
        #expect(try await route.response(using: session) == .init(served: 1, fromCache: false))
        let url = try #require(try route.makeURLRequest().url)
        #expect(urlCache.cachedResponse(for: URLRequest(url: url)) == nil)
        #expect(urlCache.currentMemoryUsage == 0)
        // A new, empty HTTPCache over the same transport sends again: the server answers, not the URLCache.
        let fresh = Session(transport: transport, interceptors: [HTTPCache()])
        #expect(try await route.response(using: fresh) == .init(served: 2, fromCache: false))
        #expect(urlCache.cachedResponse(for: URLRequest(url: url)) == nil)
        #expect(try await CacheRoute.stats(key) == .init(full: 2, notModified: 0, conditional: 0))
    }

    @Test("A POST to the URL invalidates what is stored for it")
    func invalidation() async throws {
        let key = UUID().uuidString
        let session = Self.session()
        let route = CacheRoute(path: "cache/etag", key: key, maxAge: 60)
        _ = try await route.response(using: session)
        _ = try await CacheRoute(path: "cache/etag", key: key, maxAge: 60, method: .post).response(using: session)
        #expect(try await route.response(using: session) == .init(served: 2, fromCache: false))
    }
}
