@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("HTTP cache: invalidation after unsafe methods (RFC 9111 §4.4)")
    struct HTTPCacheInvalidationTests {
        /// A cache where a GET is fresh for 100 s, and other methods answer `status` with `headers`.
        private static func harness(status: Int = 200, headers: [String: String] = [:]) -> CacheHarness {
            CacheHarness { request, count in
                request.httpMethod == "GET"
                    ? .success(headers: ["Cache-Control": "max-age=100"], body: "\(request.url!.path) \(count)")
                    : .success(status: status, headers: headers, body: "changed")
            }
        }

        @Test(
            "A non-error response to an unsafe method removes what is stored for its URL",
            arguments: [HTTPMethod.post, .put, .patch, .delete, HTTPMethod(rawValue: "PURGE")])
        func unsafeMethods(method: HTTPMethod) async throws {
            let harness = Self.harness(status: 204)
            _ = try await harness.send()
            _ = try await harness.send(CacheCall(method: method))
            #expect(try await !harness.send().fromCache)
        }

        @Test("A redirect also invalidates; an error does not", arguments: [(303, true), (404, false), (500, false)])
        func statuses(status: Int, invalidates: Bool) async throws {
            let harness = Self.harness(status: status)
            _ = try await harness.send()
            _ = try await harness.send(CacheCall(method: .post))
            #expect(try await harness.send().fromCache == !invalidates)
        }

        @Test("Safe methods invalidate nothing", arguments: [HTTPMethod.head, .options])
        func safeMethods(method: HTTPMethod) async throws {
            let harness = Self.harness()
            _ = try await harness.send()
            _ = try await harness.send(CacheCall(method: method))
            #expect(try await harness.send().fromCache)
        }

        @Test("Location and Content-Location on the same origin are invalidated too, relative or absolute")
        func locations() async throws {
            let harness = Self.harness(headers: [
                "Location": "/v1/created", "Content-Location": "https://API.example.test:443/v1/described",
            ])
            for path in ["created", "described", "untouched"] { _ = try await harness.send(CacheCall(path)) }
            _ = try await harness.send(CacheCall("collection", method: .post))
            #expect(try await !harness.send(CacheCall("created")).fromCache)
            #expect(try await !harness.send(CacheCall("described")).fromCache)
            #expect(try await harness.send(CacheCall("untouched")).fromCache)
        }

        @Test("Locations on another origin are left alone")
        func otherOrigin() async throws {
            let harness = Self.harness(headers: [
                "Location": "https://evil.example.test/v1/created",
                "Content-Location": "http://api.example.test/v1/described",
            ])
            for path in ["created", "described"] { _ = try await harness.send(CacheCall(path)) }
            _ = try await harness.send(CacheCall("collection", method: .post))
            #expect(try await harness.send(CacheCall("created")).fromCache)
            #expect(try await harness.send(CacheCall("described")).fromCache)
        }

        @Test("Invalidation reaches every user's responses for the URL")
        func everyCredential() async throws {
            let harness = Self.harness()
            let ada = CacheCall(headers: ["Authorization": "Bearer ada"])
            _ = try await harness.send(ada)
            _ = try await harness.send()
            _ = try await harness.send(CacheCall(method: .put, headers: ["Authorization": "Bearer bob"]))
            #expect(try await !harness.send(ada).fromCache)
            #expect(try await !harness.send().fromCache)
        }

        @Test("A damaged record is treated as absent and removed")
        func damagedRecord() async throws {
            let harness = Self.harness()
            let key = CacheKey.record(method: "GET", url: stubBase.appendingPathComponent("resource"))
            await harness.store.setRecord(Data("AKC1 torn".utf8), forKey: key)
            #expect(try await harness.send().body == "/v1/resource 1")
            #expect(try await harness.send().fromCache)
        }
    }
}

extension Caching {
    @Suite("HTTP cache: an invalidation overlapping a GET's or HEAD's exchange is not undone by its write-back")
    struct HTTPCacheInvalidationRaceTests {
        /// A GET is answered `v<n>`, fresh for 10 s with `ETag: "a"`, a conditional
        /// one with a 304, a POST with a 204; `before` runs, once, before the first request that
        /// `when` picks reaches the network, and the request then goes on.
        private static func harness(
            when: @escaping @Sendable (URLRequest) -> Bool, before step: Locked<(@Sendable () async -> Void)?>
        ) -> CacheHarness {
            CacheHarness(after: [RunsBefore(when: when, step: step)]) { request, count in
                if request.httpMethod == "POST" { return .success(status: 204) }
                if request.value(forHTTPHeaderField: "If-None-Match") != nil { return .success(status: 304) }
                return .success(headers: ["Cache-Control": "max-age=10", "ETag": #""a""#], body: "v\(count)")
            }
        }

        @Test("A POST that completes while a 304 is on its way: the 304 does not bring the response back")
        func invalidatedDuringValidation() async throws {
            let step = Locked<(@Sendable () async -> Void)?>(nil)
            let harness = Self.harness(when: { $0.value(forHTTPHeaderField: "If-None-Match") != nil }, before: step)
            _ = try await harness.send()
            harness.time.advance(by: 10)
            step.withLock { $0 = { _ = try? await harness.send(CacheCall(method: .post)) } }
            #expect(try await harness.send().headers["cache-status"] == "APIKit; fwd=stale; fwd-status=304")
            let after = try await harness.send()
            #expect(!after.fromCache)
            #expect(after.body == "v4")
            #expect(harness.requests.map(\.httpMethod) == ["GET", "POST", "GET", "GET"], "the POST before the 304")
        }

        @Test(
            "A POST that completes while a GET is on its way: the GET's response, maybe of before the change, is not stored"
        )
        func invalidatedDuringFetch() async throws {
            let step = Locked<(@Sendable () async -> Void)?>(nil)
            let harness = Self.harness(when: { $0.httpMethod == "GET" }, before: step)
            step.withLock { $0 = { _ = try? await harness.send(CacheCall(method: .post)) } }
            let first = try await harness.send()
            #expect(first.body == "v2", "the GET reached the network after the POST (request 1)")
            let second = try await harness.send()
            #expect(!second.fromCache)
            #expect(second.body == "v3")
            #expect(try await harness.send().fromCache, "an exchange no invalidation overlapped is stored")
        }

        @Test("A POST that completes while a HEAD is on its way: the HEAD's 200 freshens nothing")
        func invalidatedDuringHead() async throws {
            let step = Locked<(@Sendable () async -> Void)?>(nil)
            let harness = Self.harness(when: { $0.httpMethod == "HEAD" }, before: step)
            _ = try await harness.send()
            harness.time.advance(by: 10)
            step.withLock { $0 = { _ = try? await harness.send(CacheCall(method: .post)) } }
            _ = try await harness.send(CacheCall(method: .head))
            #expect(try await !harness.send().fromCache)
        }

        @Test("An invalidation between a 304's read of the record and its write: the write is undone")
        func invalidatedBetweenReadAndWriteOfValidation() async throws {
            let (harness, store) = Self.interleaved()
            _ = try await harness.send()
            harness.time.advance(by: 10)
            store.beforeNextWrite { _ = try? await harness.send(CacheCall(method: .post)) }
            #expect(try await harness.send().headers["cache-status"] == "APIKit; fwd=stale; fwd-status=304")
            #expect(store.writesHeld == 1)
            let after = try await harness.send()
            #expect(!after.fromCache, "not served from the record the POST removed")
            #expect(after.body == "v4")
        }

        @Test("An invalidation between a new response's read of the record and its write: no variant comes back")
        func invalidatedBetweenReadAndWriteOfStore() async throws {
            let (harness, store) = Self.interleaved(headers: ["Vary": "Accept"])
            let json = CacheCall(headers: ["Accept": "application/json"])
            let text = CacheCall(headers: ["Accept": "text/plain"])
            _ = try await harness.send(json)
            store.beforeNextWrite { _ = try? await harness.send(CacheCall(method: .post)) }
            _ = try await harness.send(text)
            #expect(store.writesHeld == 1)
            #expect(try await !harness.send(json).fromCache, "the variant stored before the POST is gone")
            #expect(try await !harness.send(text).fromCache, "the response received before the POST is not kept")
        }

        @Test(
            "A HEAD that finds the stored response changed removes it as an invalidation; a GET under way does not undo it"
        )
        func headRemovalIsAnInvalidation() async throws {
            let store = InterleavingStore()
            // the HEAD tells of another version than the one stored
            let harness = CacheHarness(cacheStore: store) { request, count in
                .success(
                    headers: [
                        "Cache-Control": "max-age=10", "Vary": "Accept",
                        "ETag": request.httpMethod == "HEAD" ? #""b""# : #""a""#,
                    ], body: "v\(count)")
            }
            let json = CacheCall(headers: ["Accept": "application/json"])
            _ = try await harness.send(json)
            harness.time.advance(by: 10)
            // between the text GET's read of the record and its write, the HEAD removes the json variant
            store.beforeNextWrite { _ = try? await harness.send(CacheCall(method: .head, headers: json.headers)) }
            _ = try await harness.send(CacheCall(headers: ["Accept": "text/plain"]))
            #expect(store.writesHeld == 1)
            _ = try await harness.send(json)
            #expect(harness.requests.map(\.httpMethod) == ["GET", "GET", "HEAD", "GET"])
            #expect(
                harness.requests.last?.value(forHTTPHeaderField: "If-None-Match") == nil,
                "the json variant the HEAD found changed came back, and was validated")
        }

        /// A harness whose store runs a step of the test between a read and a write.
        private static func interleaved(
            headers: [String: String] = [:]
        ) -> (CacheHarness, InterleavingStore) {
            let store = InterleavingStore()
            let harness = CacheHarness(cacheStore: store) { request, count in
                if request.httpMethod == "POST" { return .success(status: 204) }
                if request.value(forHTTPHeaderField: "If-None-Match") != nil { return .success(status: 304) }
                return .success(
                    headers: ["Cache-Control": "max-age=10", "ETag": #""a""#].merging(headers) { $1 }, body: "v\(count)"
                )
            }
            return (harness, store)
        }
    }
}

/// A link after the cache that runs a step of the test, once, before the first request `when`
/// picks goes on: what another call could do while that request is on its way.
private struct RunsBefore: Interceptor {
    var when: @Sendable (URLRequest) -> Bool
    var step: Locked<(@Sendable () async -> Void)?>

    func intercept(
        _ urlRequest: URLRequest, context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        if when(urlRequest),
            let run = step.withLock({ step in
                defer { step = nil }; return step
            })
        {
            await run()
        }
        return try await next(urlRequest)
    }
}

/// A store that runs a step of the test, once, when the next record is written, before writing
/// it: what another task could do between the cache's read of a record and its write. Not a
/// `DecodingCacheStore`: every read goes through `record(forKey:)`.
final class InterleavingStore: HTTPCacheStore {
    private let inner = MemoryCacheStore()
    private let step = Locked<(@Sendable () async -> Void)?>(nil)
    private let held = Locked(0)

    /// Runs `run` when the next record is written, before it is.
    func beforeNextWrite(_ run: @escaping @Sendable () async -> Void) {
        step.withLock { $0 = run }
    }

    /// How many writes ran a step.
    var writesHeld: Int { held.withLock { $0 } }

    func record(forKey key: String) async -> Data? { await inner.record(forKey: key) }

    func setRecord(_ record: Data, forKey key: String) async {
        if let run = step.withLock({ step in
            defer { step = nil }; return step
        }) {
            held.withLock { $0 += 1 }
            await run()
        }
        await inner.setRecord(record, forKey: key)
    }

    func removeRecord(forKey key: String) async { await inner.removeRecord(forKey: key) }
}
