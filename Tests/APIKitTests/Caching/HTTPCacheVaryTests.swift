@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("HTTP cache: variants selected by Vary (RFC 9111 §4.1)")
    struct HTTPCacheVaryTests {
        /// A server that varies on `vary` and answers with the request's Accept-Language and a count.
        private static func harness(vary: String = "Accept-Language") -> CacheHarness {
            CacheHarness { request, count in
                .success(
                    headers: ["Cache-Control": "max-age=60", "Vary": vary],
                    body: "\(request.value(forHTTPHeaderField: "Accept-Language") ?? "none") \(count)")
            }
        }

        private static func language(_ value: String?) -> CacheCall {
            CacheCall(headers: value.map { ["Accept-Language": $0] } ?? [:])
        }

        @Test("Each value of a varied header is a variant of its own, kept side by side")
        func variants() async throws {
            let harness = Self.harness()
            #expect(try await harness.send(Self.language("en")).body == "en 1")
            #expect(try await harness.send(Self.language("fr")).body == "fr 2")
            #expect(try await harness.send(Self.language(nil)).body == "none 3")
            #expect(try await harness.send(Self.language("en")).body == "en 1")
            #expect(try await harness.send(Self.language("fr")).body == "fr 2")
            #expect(try await harness.send(Self.language(nil)).body == "none 3")
            #expect(try await harness.send(Self.language("")).body == " 4", "an empty header is not an absent one")
            #expect(harness.requests.count == 4)
        }

        @Test("Values match after normalisation: list elements trimmed; Vary's names in any case and spacing")
        func normalisation() async throws {
            let harness = Self.harness(vary: " accept-LANGUAGE ,  ACCEPT-language")
            _ = try await harness.send(Self.language("en, fr;q=0.5"))
            #expect(try await harness.send(Self.language("en,fr;q=0.5")).fromCache)
            #expect(try await harness.send(Self.language("  en ,\tfr;q=0.5 ")).fromCache)
            #expect(try await !harness.send(Self.language("fr;q=0.5, en")).fromCache, "order is meaningful")
        }

        @Test(
            "A response that varies on Cookie is stored only when the request carries its own: the transport may add one the cache never sees"
        )
        func varyCookie() async throws {
            let harness = CacheHarness { request, count in
                .success(
                    headers: ["Cache-Control": "private, max-age=60", "Vary": "Cookie"],
                    body: "\(request.value(forHTTPHeaderField: "Cookie") ?? "stored cookies") \(count)")
            }
            #expect(try await harness.send(CacheCall()).body == "stored cookies 1")
            #expect(try await harness.send(CacheCall()).body == "stored cookies 2", "stored without its Cookie")
            let userA = CacheCall(headers: ["Cookie": "session=A"])
            #expect(try await harness.send(userA).body == "session=A 3")
            #expect(try await harness.send(userA).fromCache)
            #expect(try await harness.send(CacheCall(headers: ["Cookie": "session=B"])).body == "session=B 4")
            #expect(harness.requests.count == 4)
        }

        @Test("Several varied headers must all match")
        func severalHeaders() async throws {
            let harness = CacheHarness { _, count in
                .success(headers: ["Cache-Control": "max-age=60", "Vary": "Accept, X-Client"], body: "v\(count)")
            }
            _ = try await harness.send(CacheCall(headers: ["Accept": "a", "X-Client": "1"]))
            #expect(try await harness.send(CacheCall(headers: ["Accept": "a", "X-Client": "1"])).fromCache)
            #expect(try await !harness.send(CacheCall(headers: ["Accept": "a", "X-Client": "2"])).fromCache)
            #expect(try await !harness.send(CacheCall(headers: ["Accept": "a"])).fromCache)
        }

        @Test("A new response replaces only the variant its request selects")
        func oneVariantReplaced() async throws {
            let harness = CacheHarness { request, count in
                .success(
                    headers: ["Cache-Control": "max-age=10", "Vary": "Accept-Language"],
                    body: "\(request.value(forHTTPHeaderField: "Accept-Language") ?? "") \(count)")
            }
            _ = try await harness.send(Self.language("en"))
            harness.time.advance(by: 5)
            _ = try await harness.send(Self.language("fr"))
            harness.time.advance(by: 5)
            #expect(try await harness.send(Self.language("en")).body == "en 3", "en went stale")
            #expect(try await harness.send(Self.language("fr")).body == "fr 2", "fr was kept")
            #expect(try await harness.send(Self.language("en")).body == "en 3")
            #expect(harness.requests.count == 3)
        }

        @Test("Vary: * is never stored: no request matches it")
        func varyStar() async throws {
            let harness = Self.harness(vary: "Accept-Language, *")
            _ = try await harness.send(Self.language("en"))
            #expect(try await harness.send(Self.language("en")).body == "en 2")
        }

        @Test("Variants and credentials combine: the same language for another user is not shared")
        func variantsPerCredential() async throws {
            let harness = Self.harness()
            _ = try await harness.send(CacheCall(headers: ["Accept-Language": "en", "Authorization": "Basic YQ=="]))
            #expect(try await !harness.send(Self.language("en")).fromCache)
            #expect(
                try await harness.send(CacheCall(headers: ["Accept-Language": "en", "Authorization": "Basic YQ=="]))
                    .fromCache)
        }
    }
}
