import APIKit
import APIKitTestSupport
import APIKitTestTime
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// httpbin's `/response-headers`, which answers with the headers its query names: here a
/// `Cache-Control` of the test's choosing, and a `key` that keeps each test's URL its own.
private struct HeadersRoute: Request, RequestConfiguration {
    @Query("Cache-Control") var cacheControl = ""
    @Query("key") var key = UUID().uuidString
    var base = HTTPBin.baseURL
    var path: String { "response-headers" }
    var method: HTTPMethod { .get }
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }

    /// The status and whether the cache built the response, read by the caller.
    func response(from object: Data, urlResponse: URLResponse) throws -> (status: Int, fromCache: Bool) {
        ((urlResponse as? HTTPURLResponse)?.statusCode ?? 0, urlResponse.isFromHTTPCache)
    }
}

/// A link after the cache that sends each request to `target` instead, once set: how a test
/// makes the server fail for a URL the cache stored.
private struct Diverting: Interceptor {
    let target = Protected<URL?>(nil)

    func intercept(
        _ urlRequest: URLRequest, context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        guard let url = target.value else { return try await next(urlRequest) }
        var diverted = urlRequest
        diverted.url = url
        return try await next(diverted)
    }
}

/// `stale-if-error` (RFC 5861 §4) over real HTTP, on the suite's transport.
@Suite("HTTP cache: stale-if-error against a real server", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct StaleCachingTests {
    @Test("A stale response is served when the server answers 503, or cannot be reached, within stale-if-error")
    func staleIfError() async throws {
        let diverting = Diverting()
        let session = Session(transport: TestTransport.make(), interceptors: [HTTPCache(), diverting])
        let route = HeadersRoute(cacheControl: "max-age=0, stale-if-error=600")
        let first = try await route.response(using: session)
        #expect(first.status == 200 && !first.fromCache)
        diverting.target.withLock { $0 = HTTPBin.baseURL.appendingPathComponent("status/503") }
        let served = try await route.response(using: session)
        #expect(served.status == 200 && served.fromCache, "the stored 200, not the 503")
        let refused = try HTTPBin.refusedURL()
        diverting.target.withLock { $0 = refused }
        let offline = try await route.response(using: session)
        #expect(offline.status == 200 && offline.fromCache, "the stored 200, not the refused connection")
    }

    @Test("Without stale-if-error the server's failure is the call's")
    func withoutStaleIfError() async throws {
        let diverting = Diverting()
        let session = Session(transport: TestTransport.make(), interceptors: [HTTPCache(), diverting])
        let route = HeadersRoute(cacheControl: "max-age=0")
        _ = try await route.response(using: session)
        let refused = try HTTPBin.refusedURL()
        diverting.target.withLock { $0 = refused }
        await #expect(throws: RequestError.self) { try await route.response(using: session) }
    }
}
