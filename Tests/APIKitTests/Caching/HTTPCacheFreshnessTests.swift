@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("HTTP cache: freshness and age (RFC 9111 §4.2)")
    struct HTTPCacheFreshnessTests {
        @Test("A fresh response is served without the network, with its Age, until its max-age is reached")
        func maxAge() async throws {
            let harness = CacheHarness { _, count in
                .success(headers: ["Cache-Control": "max-age=60"], body: "v\(count)")
            }
            let first = try await harness.send()
            #expect(first.body == "v1")
            #expect(!first.fromCache)
            harness.time.advance(by: 59)
            let second = try await harness.send()
            #expect(second.body == "v1")
            #expect(second.fromCache)
            #expect(second.headers["age"] == "59")
            #expect(second.headers["cache-status"] == "APIKit; hit; ttl=1")
            #expect(harness.requests.count == 1)
            harness.time.advance(by: 1)
            let third = try await harness.send()
            #expect(third.body == "v2", "at an age equal to its lifetime a response is stale")
            #expect(!third.fromCache)
            #expect(harness.requests.count == 2)
        }

        @Test("Expires counts from the response's Date; max-age wins over Expires")
        func expires() async throws {
            let harness = CacheHarness { _, count in
                .success(headers: ["Date": Self.start(0), "Expires": Self.start(30)], body: "v\(count)")
            }
            _ = try await harness.send()
            harness.time.advance(by: 29)
            #expect(try await harness.send().fromCache)
            harness.time.advance(by: 1)
            #expect(try await harness.send().body == "v2")

            let both = CacheHarness { _, count in
                .success(
                    headers: ["Date": Self.start(0), "Expires": Self.start(1000), "Cache-Control": "max-age=10"],
                    body: "v\(count)")
            }
            _ = try await both.send()
            both.time.advance(by: 10)
            #expect(try await both.send().body == "v2", "max-age 10 wins over an Expires 1000 s away")
        }

        @Test(
            "An Expires that is not a date, or that is before Date, makes the response stale at once (§5.3)",
            arguments: ["0", "-1", "yesterday", "Thu, 01 Jan 1970 00:00:00 GMT"])
        func invalidExpires(expires: String) async throws {
            let harness = CacheHarness { _, count in .success(headers: ["Expires": expires], body: "v\(count)") }
            _ = try await harness.send()
            #expect(try await harness.send().body == "v2")
        }

        @Test("The Age header, and a Date in the past, count in the current age (§4.2.3)")
        func currentAge() async throws {
            let aged = CacheHarness { _, count in
                .success(headers: ["Cache-Control": "max-age=100", "Age": "90"], body: "v\(count)")
            }
            _ = try await aged.send()
            aged.time.advance(by: 9)
            let hit = try await aged.send()
            #expect(hit.fromCache)
            #expect(hit.headers["age"] == "99")
            aged.time.advance(by: 1)
            #expect(try await aged.send().body == "v2")

            // The server's clock says the response is 50 s old when it arrives (apparent age).
            let dated = CacheHarness { _, count in
                .success(headers: ["Cache-Control": "max-age=60", "Date": Self.start(-50)], body: "v\(count)")
            }
            _ = try await dated.send()
            dated.time.advance(by: 9)
            #expect(try await dated.send().headers["age"] == "59")
            dated.time.advance(by: 1)
            #expect(try await dated.send().body == "v2")
        }

        @Test("An Expires past 2038 is read; ages and lifetimes past 2^31 seconds are served as they are")
        func farFuture() async throws {
            let expires = CacheHarness { _, count in
                .success(
                    headers: ["Date": Self.start(0), "Expires": "Fri, 01 Jan 2100 00:00:00 GMT"], body: "v\(count)")
            }
            _ = try await expires.send()
            let hit = try await expires.send()
            #expect(hit.fromCache)
            #expect(hit.headers["cache-status"] == "APIKit; hit; ttl=2302444800", "from 2027-01-15 to 2100")

            let capped = CacheHarness { _, count in
                .success(headers: ["Cache-Control": "max-age=99999999999", "Age": "99999999999"], body: "v\(count)")
            }
            _ = try await capped.send()
            capped.time.advance(by: 5)
            let stale = try await capped.send(CacheCall(headers: ["Cache-Control": "max-stale"]))
            #expect(stale.body == "v1")
            #expect(stale.headers["age"] == "2147483653", "2^31, the cap, and 5 s in the cache")

            let long = CacheHarness { _, count in
                .success(headers: ["Cache-Control": "max-age=99999999999"], body: "v\(count)")
            }
            _ = try await long.send()
            #expect(try await long.send().headers["cache-status"] == "APIKit; hit; ttl=2147483648")
        }

        @Test("An Age that is not delta-seconds is ignored; of a list, the first member counts (§5.1)")
        func invalidAge() async throws {
            for (age, expected) in [("abc", "0"), ("-10", "0"), ("20, 50", "20"), ("1.5", "0")] {
                let harness = CacheHarness { _, _ in .success(headers: ["Cache-Control": "max-age=100", "Age": age]) }
                _ = try await harness.send()
                #expect(try await harness.send().headers["age"] == expected, "Age: \(age)")
            }
        }

        @Test("Without explicit freshness, 10% of the time since Last-Modified, for a URL without a query (§4.2.2)")
        func heuristic() async throws {
            let harness = CacheHarness { _, count in
                .success(headers: ["Date": Self.start(0), "Last-Modified": Self.start(-1000)], body: "v\(count)")
            }
            _ = try await harness.send()
            harness.time.advance(by: 99)
            #expect(try await harness.send().fromCache)
            harness.time.advance(by: 1)
            #expect(try await harness.send().body == "v2")

            let query = CacheHarness { _, count in
                .success(headers: ["Date": Self.start(0), "Last-Modified": Self.start(-1000)], body: "v\(count)")
            }
            _ = try await query.send(CacheCall(query: "page=1"))
            #expect(try await query.send(CacheCall(query: "page=1")).body == "v2", "no heuristic with a query")
        }

        @Test("No heuristic freshness for a status that is not cacheable by default")
        func heuristicNeedsDefaultCacheableStatus() async throws {
            let harness = CacheHarness { _, count in
                .success(
                    status: 302, headers: ["Last-Modified": Self.start(-1000), "Cache-Control": "private"],
                    body: "v\(count)")
            }
            _ = try await harness.send()
            #expect(try await harness.send().body == "v2")
        }

        /// The IMF-fixdate `seconds` from the ManualTime's start.
        static func start(_ seconds: TimeInterval) -> String {
            CacheHarness.format(Date(timeIntervalSince1970: 1_800_000_000 + seconds))
        }
    }
}
