@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Caching {
    @Suite("HTTP cache: a URLCache below it neither answers nor stores")
    struct HTTPCacheURLCacheTests {
        @Test(
            "Every request the cache sends on ignores a URLCache's data: a miss, a validation, a background one, the caller's own conditional"
        )
        func requestsPassedOn() async throws {
            let harness = CacheHarness { request, count in
                request.value(forHTTPHeaderField: "If-None-Match") != nil
                    ? .success(status: 304, headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60"])
                    : .success(
                        headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60", "ETag": #""v1""#],
                        body: "body \(count)")
            }
            _ = try await harness.send()
            harness.time.advance(by: 80)
            _ = try await harness.send()
            harness.time.advance(by: 20)
            _ = try await harness.send()
            await harness.cache.revalidationsFinished()
            _ = try await harness.send(CacheCall(headers: ["If-None-Match": #""v0""#]))
            #expect(harness.requests.count == 4)
            for request in harness.requests {
                #expect(request.cachePolicy == .reloadIgnoringLocalCacheData)
            }
        }

        @Test("URLSessionTransport's delegate declines to store what the cache passed on, and only that")
        func delegateDeclines() async throws {
            let router = URLSessionTaskRouter()
            let session = URLSession(configuration: .ephemeral, delegate: router, delegateQueue: nil)
            defer { session.invalidateAndCancel() }
            let url = URL(string: "http://127.0.0.1:9/resource")!
            let head = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)!
            let proposed = CachedURLResponse(response: head, data: Data("body".utf8))
            for policy in [URLRequest.CachePolicy.reloadIgnoringLocalCacheData, .useProtocolCachePolicy] {
                var request = URLRequest(url: url)
                request.cachePolicy = policy
                let task = session.dataTask(with: request)
                let kept = Locked<CachedURLResponse??>(nil)
                router.urlSession(session, dataTask: task, willCacheResponse: proposed) { response in
                    kept.withLock { $0 = .some(response) }
                }
                let answered = try #require(kept.withLock { $0 }, "the delegate answered at once")
                #expect((answered == nil) == (policy == .reloadIgnoringLocalCacheData), "policy \(policy.rawValue)")
            }
            #expect(HTTPCache.bypassingURLCache(URLRequest(url: url)).cachePolicy == .reloadIgnoringLocalCacheData)
        }
    }
}
