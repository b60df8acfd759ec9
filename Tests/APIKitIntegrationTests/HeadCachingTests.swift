import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `HEAD /cache/swr` of the FastAPI server for one test's key: the head `GET` would answer.
private struct RevalidatedRouteHead: Request, RequestConfiguration {
    @Query("key") var key = ""
    var base = FastAPIServer.url ?? URL(string: "http://127.0.0.1:9")!
    var path: String { "cache/swr" }
    var method: HTTPMethod { .head }
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    var options: RequestOptions { RequestOptions(timeout: 30) }

    /// What a `HEAD` received: the status, the `ETag`, the cache's `Cache-Status` when the cache
    /// answered, and the body's length (a `HEAD`'s is empty).
    struct Answered: Equatable {
        var status: Int
        var etag: String?
        var cacheStatus: String?
        var bodyLength: Int
    }

    func response(from object: Data, urlResponse: URLResponse) throws -> Answered {
        let head = urlResponse as? HTTPURLResponse
        return Answered(
            status: head?.statusCode ?? 0, etag: head?.value(forHTTPHeaderField: "ETag"),
            cacheStatus: head?.value(forHTTPHeaderField: "Cache-Status"), bodyLength: object.count)
    }
}

/// `HEAD` through ``HTTPCache`` over real HTTP, on the suite's transport (RFC 9111 §4, §4.3.5): a
/// fresh stored `GET` answers it; otherwise it reaches the server, and its `200` freshens the
/// stored `GET` when its validators agree, or removes it when they do not. The server counts
/// `HEAD`s apart from full answers and validations, so each verdict is a count, never a time.
@Suite(
    "HTTP cache: HEAD against a real server",
    .enabled(if: FastAPIServer.url != nil, FastAPIServer.skipReason))
struct HeadCachingTests {
    private static func session() -> Session {
        Session(transport: TestTransport.make(), interceptors: [HTTPCache()])
    }

    @Test("A HEAD is answered from a fresh stored GET: nothing reaches the server")
    func answeredFromStoredGet() async throws {
        let key = UUID().uuidString
        let session = Self.session()
        try await RevalidatedRouteChange(key: key, version: 1, maxAge: 600).send()
        #expect(try await RevalidatedRoute(key: key).response(using: session).served == 1)
        let head = try await RevalidatedRouteHead(key: key).response(using: session)
        #expect(head.status == 200 && head.etag == "\"\(key)-v1\"" && head.bodyLength == 0, "\(head)")
        #expect(head.cacheStatus?.hasPrefix("APIKit; hit") == true, "\(head)")
        #expect(try await CacheRoute.stats(key) == .init(full: 1, notModified: 0, conditional: 0, heads: 0))
    }

    @Test("A 200 HEAD whose ETag is the stored GET's freshens it: the next GET is a fresh hit")
    func agreeingHeadFreshens() async throws {
        let key = UUID().uuidString
        let session = Self.session()
        // max-age=0: stale as soon as stored, on any clock
        #expect(try await RevalidatedRoute(key: key).response(using: session).served == 1)
        try await RevalidatedRouteChange(key: key, version: 1, maxAge: 600).send()
        let head = try await RevalidatedRouteHead(key: key).response(using: session)
        #expect(head.status == 200 && head.etag == "\"\(key)-v1\"" && head.cacheStatus == nil, "\(head)")
        // Without the freshening the stale GET would be served while a validation goes out.
        let get = try await RevalidatedRoute(key: key).response(using: session)
        #expect(get.served == 1 && get.isFreshHit, "\(get)")
        #expect(try await CacheRoute.stats(key) == .init(full: 1, notModified: 0, conditional: 0, heads: 1))
    }

    @Test("A 200 HEAD with another ETag removes the stored GET: the next GET asks the server")
    func disagreeingHeadRemoves() async throws {
        let key = UUID().uuidString
        let session = Self.session()
        #expect(try await RevalidatedRoute(key: key).response(using: session).served == 1)
        try await RevalidatedRouteChange(key: key, version: 2, maxAge: 600).send()
        let head = try await RevalidatedRouteHead(key: key).response(using: session)
        #expect(head.status == 200 && head.etag == "\"\(key)-v2\"" && head.cacheStatus == nil, "\(head)")
        // Without the removal the stale version 1 would be served while a validation goes out.
        let get = try await RevalidatedRoute(key: key).response(using: session)
        #expect(get == .init(served: 2, version: 2, cacheStatus: nil), "\(get)")
        #expect(try await CacheRoute.stats(key) == .init(full: 2, notModified: 0, conditional: 0, heads: 1))
    }
}
