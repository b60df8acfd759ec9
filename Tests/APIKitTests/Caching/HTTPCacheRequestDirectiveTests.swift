@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("HTTP cache: the request's directives (RFC 9111 §5.2.1)")
    struct HTTPCacheRequestDirectiveTests {
        /// A cache holding a response fresh for 100 s, without validators; each network answer
        /// numbers its body.
        private static func harness(_ headers: [String: String] = ["Cache-Control": "max-age=100"]) -> CacheHarness {
            CacheHarness { _, count in .success(headers: headers, body: "v\(count)") }
        }

        @Test("max-age: a stored response older than the request allows is not used")
        func maxAge() async throws {
            let harness = Self.harness()
            _ = try await harness.send()
            harness.time.advance(by: 30)
            #expect(try await harness.send(CacheCall(headers: ["Cache-Control": "max-age=30"])).fromCache)
            harness.time.advance(by: 1)
            #expect(try await harness.send(CacheCall(headers: ["Cache-Control": "max-age=30"])).body == "v2")
            harness.time.advance(by: 1)
            #expect(try await harness.send(CacheCall(headers: ["Cache-Control": "max-age=0"])).body == "v3")
        }

        @Test("min-fresh: the response must stay fresh for that long yet")
        func minFresh() async throws {
            let harness = Self.harness()
            _ = try await harness.send()
            harness.time.advance(by: 50)
            #expect(try await harness.send(CacheCall(headers: ["Cache-Control": "min-fresh=50"])).fromCache)
            #expect(try await harness.send(CacheCall(headers: ["Cache-Control": "min-fresh=51"])).body == "v2")
        }

        @Test("max-stale: a stale response is used within the staleness allowed, or any without an argument")
        func maxStale() async throws {
            let harness = Self.harness()
            _ = try await harness.send()
            harness.time.advance(by: 110)
            let stale = try await harness.send(CacheCall(headers: ["Cache-Control": "max-stale=10"]))
            #expect(stale.fromCache)
            #expect(stale.headers["cache-status"] == "APIKit; hit; ttl=-10")
            #expect(try await harness.send(CacheCall(headers: ["Cache-Control": "max-stale"])).fromCache)
            harness.time.advance(by: 1)
            #expect(try await harness.send(CacheCall(headers: ["Cache-Control": "max-stale=10"])).body == "v2")
        }

        @Test("max-stale does not reach a response with must-revalidate or no-cache (§5.2.2.2, §5.2.2.4)")
        func maxStaleRespectsMustRevalidate() async throws {
            for directive in ["max-age=10, must-revalidate", "max-age=10, no-cache"] {
                let harness = Self.harness(["Cache-Control": directive])
                _ = try await harness.send()
                harness.time.advance(by: 20)
                #expect(
                    try await harness.send(CacheCall(headers: ["Cache-Control": "max-stale"])).body == "v2",
                    "\(directive)")
            }
        }

        @Test("no-cache, and Pragma: no-cache without Cache-Control, send the request even when fresh")
        func noCache() async throws {
            let harness = Self.harness()
            _ = try await harness.send()
            #expect(try await harness.send(CacheCall(headers: ["Cache-Control": "no-cache"])).body == "v2")
            #expect(try await harness.send(CacheCall(headers: ["Pragma": "no-cache"])).body == "v3")
            #expect(try await harness.send().body == "v3", "the new response was stored")
            #expect(
                try await harness.send(CacheCall(headers: ["Pragma": "no-cache", "Cache-Control": "max-stale"]))
                    .fromCache)
        }

        @Test("no-store: the response is not stored")
        func noStore() async throws {
            let harness = Self.harness()
            _ = try await harness.send(CacheCall(headers: ["Cache-Control": "no-store"]))
            #expect(try await harness.send().body == "v2")
            #expect(try await harness.send().fromCache)
        }

        @Test("only-if-cached: a usable stored response, or notCached without sending anything")
        func onlyIfCached() async throws {
            let harness = Self.harness()
            let onlyCached = CacheCall(headers: ["Cache-Control": "only-if-cached"])
            let error = await #expect(throws: RequestError.self) { try await harness.send(onlyCached) }
            guard case .notCached(let context) = error else {
                Issue.record("expected notCached, got \(String(describing: error))")
                return
            }
            #expect(context.url?.path == "/v1/resource")
            #expect(error?.stage == .transport)
            #expect(error?.statusCode == nil)
            #expect(error?.description.contains("only-if-cached") == true)
            #expect(harness.requests.isEmpty)
            _ = try await harness.send()
            #expect(try await harness.send(onlyCached).fromCache)
            harness.time.advance(by: 200)
            await #expect(throws: RequestError.self, "stale is not usable") { try await harness.send(onlyCached) }
            let staleAllowed = CacheCall(headers: ["Cache-Control": "only-if-cached, max-stale"])
            #expect(try await harness.send(staleAllowed).fromCache)
            #expect(harness.requests.count == 1)
        }
    }
}
