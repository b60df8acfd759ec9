@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("HTTP cache: a Date on what it stores (RFC 9110 §6.6.1)")
    struct HTTPCacheDateTests {
        /// A cache whose network answers with `headers` (a conditional request with a 304 and
        /// `notModified`), the clock moved `0.75` s past a whole second before the first call.
        private static func harness(
            _ headers: [String: String], notModified: [String: String] = [:]
        ) -> CacheHarness {
            let harness = CacheHarness { request, count in
                request.value(forHTTPHeaderField: "If-None-Match") != nil
                    ? .success(status: 304, headers: notModified)
                    : .success(headers: headers, body: "v\(count)")
            }
            harness.time.advance(by: 0.75)
            return harness
        }

        @Test("A response stored without Date is served with the second it was received in, rounded down")
        func addsDate() async throws {
            let harness = Self.harness(["Cache-Control": "max-age=60"])
            _ = try await harness.send()
            harness.time.advance(by: 10)
            let hit = try await harness.send()
            #expect(hit.fromCache)
            #expect(hit.headers["date"] == harness.date(0), "received at 0.75 s: the second that began at 0")
            #expect(hit.headers["age"] == "10", "10.75 s since that second began")
        }

        @Test("The added Date keeps the apparent age under a second: max-age counts from the second it names")
        func maxAgeAfterTruncation() async throws {
            let harness = Self.harness(["Cache-Control": "max-age=60"])
            _ = try await harness.send()
            harness.time.advance(by: 59)
            let late = try await harness.send()
            #expect(late.fromCache, "59 s after it was received, the response is fresh")
            #expect(late.headers["age"] == "59", "59.75 s: the apparent age is 0.75 s, not a second or more")
            #expect(late.headers["cache-status"] == "APIKit; hit; ttl=0")
            harness.time.advance(by: 0.125)
            #expect(try await harness.send().fromCache, "59.875 s after the second of its Date")
            harness.time.advance(by: 0.125)
            #expect(try await harness.send().body == "v2", "60 s after the second of its Date: stale")
        }

        @Test("A response with Expires and no Date is fresh until its Expires, as before: the Date is not rounded up")
        func expiresAfterTruncation() async throws {
            let harness = CacheHarness { _, count in
                .success(headers: ["Expires": HTTPCacheFreshnessTests.start(30)], body: "v\(count)")
            }
            harness.time.advance(by: 0.75)
            _ = try await harness.send()
            harness.time.advance(by: 29.125)
            let hit = try await harness.send()
            #expect(hit.fromCache, "29.875 s of 30")
            #expect(hit.headers["date"] == harness.date(0))
            harness.time.advance(by: 0.125)
            #expect(try await harness.send().body == "v2", "stale at its Expires")
        }

        @Test("A Date that is not a date is replaced; a server's Date is kept as it is")
        func invalidAndValidDates() async throws {
            let invalid = Self.harness(["Cache-Control": "max-age=60", "Date": "yesterday"])
            _ = try await invalid.send()
            #expect(try await invalid.send().headers["date"] == invalid.date(0))
            let server = HTTPCacheFreshnessTests.start(-5)
            let valid = Self.harness(["Cache-Control": "max-age=60", "Date": server])
            _ = try await valid.send()
            let hit = try await valid.send()
            #expect(hit.headers["date"] == server)
            #expect(hit.headers["age"] == "5")
        }

        @Test("A 304 without Date dates the stored response at the second of the validation")
        func notModifiedWithoutDate() async throws {
            let harness = Self.harness([
                "Cache-Control": "max-age=10", "ETag": #""a""#, "Date": HTTPCacheFreshnessTests.start(0),
            ])
            _ = try await harness.send()
            harness.time.advance(by: 10)
            let validated = try await harness.send()
            #expect(validated.headers["cache-status"] == "APIKit; fwd=stale; fwd-status=304")
            #expect(validated.headers["date"] == harness.date(10), "validated at 10.75 s")
            harness.time.advance(by: 5)
            let hit = try await harness.send()
            #expect(hit.fromCache)
            #expect(hit.headers["date"] == harness.date(10))
            #expect(hit.headers["age"] == "5")
            #expect(harness.requests.count == 2)
        }

        @Test("A HEAD's 200 without Date dates the stored GET response at the second it was received in")
        func headWithoutDate() async throws {
            let harness = CacheHarness { request, count in
                request.httpMethod == "HEAD"
                    ? .success(headers: ["Cache-Control": "max-age=10", "ETag": #""a""#])
                    : .success(
                        headers: [
                            "Cache-Control": "max-age=10", "ETag": #""a""#, "Date": HTTPCacheFreshnessTests.start(0),
                        ], body: "v\(count)")
            }
            _ = try await harness.send()
            harness.time.advance(by: 20.5)
            _ = try await harness.send(CacheCall(method: .head))
            let hit = try await harness.send()
            #expect(hit.fromCache)
            #expect(hit.headers["date"] == harness.date(20))
        }
    }
}
