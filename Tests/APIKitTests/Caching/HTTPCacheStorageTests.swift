@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("HTTP cache: what may be stored (RFC 9111 §3)")
    struct HTTPCacheStorageTests {
        /// Whether a response with `status` and `headers` is answered from the cache the second
        /// time (with enough heuristic freshness when it has none of its own).
        private static func isReused(status: Int, headers: [String: String], request: [String: String] = [:])
            async throws -> Bool
        {
            let harness = CacheHarness { _, count in .success(status: status, headers: headers, body: "v\(count)") }
            _ = try await harness.send(CacheCall(headers: request))
            return try await harness.send(CacheCall(headers: request)).fromCache
        }

        private static let heuristic = ["Last-Modified": "Thu, 01 Jan 1970 00:00:00 GMT"]

        @Test(
            "A status cacheable by default is stored with heuristic freshness (RFC 9110 §15.1)",
            arguments: [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501])
        func cacheableByDefault(status: Int) async throws {
            #expect(try await Self.isReused(status: status, headers: Self.heuristic))
        }

        @Test(
            "Other statuses are stored only with explicit freshness; 206 and 304 never",
            arguments: [201, 202, 302, 303, 307, 400, 403, 500, 502, 503])
        func otherStatuses(status: Int) async throws {
            #expect(try await !Self.isReused(status: status, headers: Self.heuristic))
            #expect(try await Self.isReused(status: status, headers: ["Cache-Control": "max-age=60"]))
        }

        @Test("206 and 304 are never stored, even with explicit freshness", arguments: [206, 304])
        func neverStored(status: Int) async throws {
            #expect(try await !Self.isReused(status: status, headers: ["Cache-Control": "max-age=60"]))
        }

        @Test(
            "no-store in the response is not stored; must-understand with a known status is (§5.2.2.3, §5.2.2.5)",
            arguments: [
                ("no-store", false), ("max-age=60, no-store", false), ("NO-STORE, max-age=60", false),
                ("max-age=60, must-understand, no-store", true),
            ])
        func noStore(directives: String, stored: Bool) async throws {
            #expect(try await Self.isReused(status: 200, headers: ["Cache-Control": directives]) == stored)
        }

        @Test("must-understand with a status the cache does not know is not stored")
        func mustUnderstandUnknownStatus() async throws {
            let headers = ["Cache-Control": "max-age=60, must-understand, no-store"]
            #expect(try await !Self.isReused(status: 299, headers: headers))
        }

        @Test("A private response is stored: this is a private cache (§5.2.2.7)")
        func privateResponses() async throws {
            #expect(try await Self.isReused(status: 200, headers: ["Cache-Control": "private, max-age=60"]))
            #expect(try await Self.isReused(status: 500, headers: ["Cache-Control": "public, max-age=60"]))
        }

        @Test("A response to a request with Authorization is stored, for the same credential only (§3.5)")
        func authorization() async throws {
            let harness = CacheHarness { request, count in
                .success(headers: ["Cache-Control": "max-age=60"], body: "v\(count)")
            }
            let ada = CacheCall(headers: ["Authorization": "Bearer ada"])
            let bob = CacheCall(headers: ["Authorization": "Bearer bob"])
            #expect(try await harness.send(ada).body == "v1")
            #expect(try await harness.send(ada).fromCache)
            #expect(try await harness.send(bob).body == "v2", "another user's response is never served")
            #expect(try await harness.send().body == "v3", "nor an anonymous one")
            #expect(try await harness.send(ada).body == "v1")
            #expect(try await harness.send(bob).body == "v2")
        }

        @Test("The credential is kept only as a digest")
        func credentialNotInClear() async throws {
            let harness = CacheHarness { _, _ in .success(headers: ["Cache-Control": "max-age=60"], body: "ok") }
            _ = try await harness.send(CacheCall(headers: ["Authorization": "Bearer secret-token-123"]))
            let key = CacheKey.record(method: "GET", url: stubBase.appendingPathComponent("resource"))
            let record = try #require(await harness.store.record(forKey: key))
            #expect(record.range(of: Data("secret-token-123".utf8)) == nil)
            #expect(!key.contains("resource"))
        }

        @Test("A HEAD's response is not stored: HEADs, and the GET after them, go to the network")
        func methods() async throws {
            let harness = CacheHarness { _, count in
                .success(headers: ["Cache-Control": "max-age=60"], body: "v\(count)")
            }
            _ = try await harness.send(CacheCall(method: .head))
            _ = try await harness.send(CacheCall(method: .head))
            #expect(harness.requests.count == 2)
            #expect(try await harness.send().body == "v3")
        }

        @Test("A cut-off body is an error, and nothing is stored")
        func cutOffNotStored() async throws {
            let harness = CacheHarness { _, count in
                count == 1
                    ? .success(headers: ["Cache-Control": "max-age=60", "Content-Length": "100"], body: "short")
                    : .success(headers: ["Cache-Control": "max-age=60"], body: "v\(count)")
            }
            await #expect(throws: RequestError.self) { try await harness.send() }
            #expect(try await harness.send().body == "v2")
        }

        @Test("A response larger than the store is passed on and not kept")
        func largerThanStore() async throws {
            let harness = CacheHarness(maxBytes: 100) { _, count in
                .success(
                    headers: ["Cache-Control": "max-age=60"], body: String(repeating: "x", count: 200) + "\(count)")
            }
            _ = try await harness.send()
            #expect(try await harness.send().body.hasSuffix("2"))
        }

        @Test("A response reached through a redirect is not stored under the URL asked for (§4)")
        func redirectedNotStored() async throws {
            let harness = CacheHarness(after: [FollowsRedirect(from: "a", to: "b")]) { request, count in
                .success(headers: ["Cache-Control": "max-age=3600"], body: "\(request.url!.lastPathComponent) \(count)")
            }
            let first = try await harness.send(CacheCall("a"))
            #expect(first.body == "b 1")
            let second = try await harness.send(CacheCall("a"))
            #expect(second.body == "b 2", "the redirect had no freshness of its own: /a goes to the network")
            #expect(!second.fromCache)
            #expect(second.headers["cache-status"] == nil)
            #expect(harness.requests.count == 2)
        }

        @Test("A 304 reached through a redirect does not freshen what is stored for the URL asked for")
        func redirected304DoesNotFreshen() async throws {
            // /a's validation is redirected to /b, whose 304 speaks of /b's response.
            let redirect = FollowsRedirect(from: "a", to: "b") { $0.value(forHTTPHeaderField: "If-None-Match") != nil }
            let harness = CacheHarness(after: [redirect]) { request, count in
                request.value(forHTTPHeaderField: "If-None-Match") == #""e""#
                    ? .success(status: 304, headers: ["Cache-Control": "max-age=3600", "ETag": #""e""#])
                    : .success(
                        headers: ["Cache-Control": "max-age=10", "ETag": #""e""#],
                        body: "\(request.url!.lastPathComponent) \(count)")
            }
            _ = try await harness.send(CacheCall("a"))
            harness.time.advance(by: 10)
            let validated = try await harness.send(CacheCall("a"))
            #expect(validated.body == "a 3", "/b's 304 is not about /a: /a is asked for again, unconditionally")
            #expect(validated.headers["cache-status"] == nil)
            #expect(harness.requests.map { $0.url!.lastPathComponent } == ["a", "b", "a"])
        }
    }
}
