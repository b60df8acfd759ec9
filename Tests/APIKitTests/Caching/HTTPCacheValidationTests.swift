@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("HTTP cache: validating stale responses (RFC 9111 §4.3)")
    struct HTTPCacheValidationTests {
        @Test("A stale response with an ETag is validated with If-None-Match; the 304 serves the stored body")
        func etag() async throws {
            let harness = CacheHarness { request, count in
                if request.value(forHTTPHeaderField: "If-None-Match") == #""v1""# {
                    return .success(status: 304, headers: ["Cache-Control": "max-age=10", "ETag": #""v1""#])
                }
                return .success(headers: ["Cache-Control": "max-age=10", "ETag": #""v1""#], body: "body \(count)")
            }
            _ = try await harness.send()
            harness.time.advance(by: 10)
            let validated = try await harness.send()
            #expect(validated.body == "body 1")
            #expect(validated.status == 200)
            #expect(validated.fromCache)
            #expect(validated.headers["cache-status"] == "APIKit; fwd=stale; fwd-status=304")
            #expect(harness.requests.count == 2)
            #expect(harness.requests[1].value(forHTTPHeaderField: "If-None-Match") == #""v1""#)
            #expect(harness.requests[1].value(forHTTPHeaderField: "If-Modified-Since") == nil)
            harness.time.advance(by: 9)
            let fresh = try await harness.send()
            #expect(fresh.headers["cache-status"] == "APIKit; hit; ttl=1", "the 304 made it fresh again")
            #expect(harness.requests.count == 2)
        }

        @Test("A stale response with Last-Modified is validated with If-Modified-Since")
        func lastModified() async throws {
            let modified = HTTPCacheFreshnessTests.start(-5)
            let harness = CacheHarness { request, _ in
                request.value(forHTTPHeaderField: "If-Modified-Since") == modified
                    ? .success(status: 304)
                    : .success(headers: ["Cache-Control": "max-age=0", "Last-Modified": modified], body: "stored")
            }
            _ = try await harness.send()
            let validated = try await harness.send()
            #expect(validated.body == "stored")
            #expect(validated.fromCache)
            #expect(harness.requests.last?.value(forHTTPHeaderField: "If-Modified-Since") == modified)
        }

        @Test("The 304's headers replace the stored ones, but Content-Length (§3.2, §4.3.4)")
        func freshening() async throws {
            let harness = CacheHarness { request, _ in
                request.value(forHTTPHeaderField: "If-None-Match") != nil
                    ? .success(
                        status: 304,
                        headers: [
                            "ETag": "\"a\"", "X-Version": "2", "cache-control": "max-age=50", "Content-Length": "0",
                            "Connection": "close, X-Hop", "X-Hop": "hop",
                        ])
                    : .success(
                        headers: ["ETag": "\"a\"", "X-Version": "1", "Cache-Control": "max-age=1", "X-Kept": "yes"],
                        body: "twelve bytes")
            }
            _ = try await harness.send()
            harness.time.advance(by: 1)
            let validated = try await harness.send()
            #expect(validated.headers["x-version"] == "2")
            #expect(validated.headers["x-kept"] == "yes")
            #expect(validated.headers["cache-control"] == "max-age=50")
            #expect(validated.headers["content-length"] != "0")
            #expect(validated.headers["x-hop"] == nil, "a field Connection names is not stored")
            #expect(validated.headers["connection"] == nil)
            harness.time.advance(by: 49)
            #expect(try await harness.send().fromCache, "the 304's max-age counts")
            #expect(harness.requests.count == 2)
        }

        /// A response stored with `ETag: "a"`, `max-age=120` and `stored`, validated once 130 s
        /// old — the server answers a conditional request with a 304 carrying the same ETag and
        /// max-age and `notModified`, any other with `v` and its number — then asked for 10 s
        /// later. Returns the harness, the validated answer and that last answer.
        private static func hitAfterValidation(
            stored: [String: String], notModified: [String: String]
        ) async throws -> (CacheHarness, validation: CacheAnswer, hit: CacheAnswer) {
            let validator = ["ETag": #""a""#, "Cache-Control": "max-age=120"]
            let harness = CacheHarness { request, count in
                request.value(forHTTPHeaderField: "If-None-Match") == #""a""#
                    ? .success(status: 304, headers: validator.merging(notModified) { $1 })
                    : .success(headers: validator.merging(stored) { $1 }, body: "v\(count)")
            }
            _ = try await harness.send()
            harness.time.advance(by: 130)
            let validation = try await harness.send()
            harness.time.advance(by: 10)
            return (harness, validation, try await harness.send())
        }

        @Test("A 304 without Age starts the response's age again: the stored Age is dropped (§4.2.3, §5.1)")
        func validationResetsAge() async throws {
            let (harness, validation, hit) = try await Self.hitAfterValidation(
                stored: ["Age": "200"], notModified: [:])
            #expect(validation.headers["cache-status"] == "APIKit; fwd=stale; fwd-status=304")
            #expect(hit.body == "v1")
            #expect(hit.headers["cache-status"] == "APIKit; hit; ttl=110", "10 s old, not 210 s")
            #expect(hit.headers["age"] == "10")
            #expect(harness.requests.count == 2)
        }

        @Test("A 304 without Date is not aged by the stored Date: its age counts from the validation")
        func validationWithoutDate() async throws {
            let (harness, _, hit) = try await Self.hitAfterValidation(
                stored: ["Date": HTTPCacheFreshnessTests.start(0)], notModified: [:])
            #expect(hit.headers["cache-status"] == "APIKit; hit; ttl=110", "10 s old, not 140 s")
            #expect(harness.requests.count == 2)
        }

        @Test("A 304 with Age and Date: its own Age and Date count, not the stored ones")
        func validationWithAgeAndDate() async throws {
            let (harness, _, hit) = try await Self.hitAfterValidation(
                stored: ["Age": "200", "Date": HTTPCacheFreshnessTests.start(0)],
                notModified: ["Age": "30", "Date": HTTPCacheFreshnessTests.start(120)])
            #expect(hit.headers["age"] == "40", "the 304's Age (30), above its apparent age (10), then 10 s stored")
            #expect(hit.headers["cache-status"] == "APIKit; hit; ttl=80")
            #expect(harness.requests.count == 2)
        }

        @Test("A full response to the validation replaces the stored one")
        func fullResponseReplaces() async throws {
            let harness = CacheHarness { _, count in
                .success(headers: ["Cache-Control": "max-age=10", "ETag": "\"v\(count)\""], body: "v\(count)")
            }
            _ = try await harness.send()
            harness.time.advance(by: 10)
            let second = try await harness.send()
            #expect(second.body == "v2")
            #expect(!second.fromCache)
            #expect(harness.requests[1].value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
            #expect(try await harness.send().body == "v2")
            #expect(try await harness.send().fromCache)
        }

        @Test("A 304 naming another ETag does not update the stored response: the request is sent again")
        func mismatchedValidator() async throws {
            let harness = CacheHarness { _, count in
                count == 2
                    ? .success(status: 304, headers: ["ETag": "\"other\""])
                    : .success(headers: ["Cache-Control": "max-age=10", "ETag": "\"v\(count)\""], body: "v\(count)")
            }
            _ = try await harness.send()
            harness.time.advance(by: 10)
            #expect(try await harness.send().body == "v3")
            #expect(harness.requests[2].value(forHTTPHeaderField: "If-None-Match") == nil)
        }

        @Test(
            "A 304 whose validator the stored response does not have, or has another value of, updates nothing (§4.3.4)",
            arguments: [
                // the stored response's validators, the 304's
                (["Last-Modified": HTTPCacheFreshnessTests.start(-100)], ["ETag": #""v1""#]),
                (
                    ["Last-Modified": HTTPCacheFreshnessTests.start(-100)],
                    ["Last-Modified": HTTPCacheFreshnessTests.start(-50)]
                ),
                (
                    ["ETag": #""v1""#, "Last-Modified": HTTPCacheFreshnessTests.start(-100)],
                    ["Last-Modified": HTTPCacheFreshnessTests.start(-50)]
                ),
                (["ETag": #""v1""#], ["Last-Modified": HTTPCacheFreshnessTests.start(-50)]),
            ])
        func unmatchedValidator(stored: [String: String], notModified: [String: String]) async throws {
            let (harness, answer) = try await Self.revalidated(stored: stored, notModified: notModified)
            #expect(answer.body == "v3", "asked for again, unconditionally")
            #expect(answer.headers["cache-status"] == nil)
            try #require(harness.requests.count == 3)
            #expect(harness.requests[2].value(forHTTPHeaderField: "If-None-Match") == nil)
            #expect(harness.requests[2].value(forHTTPHeaderField: "If-Modified-Since") == nil)
        }

        /// A response stored with `stored` (`max-age=10`), then, once stale, validated: the server
        /// answers the second request with a 304 carrying `notModified` (`max-age=100`), any other
        /// with `v` and its number. Returns the harness and the answer to the second call.
        private static func revalidated(
            stored: [String: String], notModified: [String: String]
        ) async throws -> (CacheHarness, CacheAnswer) {
            let harness = CacheHarness { _, count in
                count == 2
                    ? .success(status: 304, headers: notModified.merging(["Cache-Control": "max-age=100"]) { $1 })
                    : .success(headers: stored.merging(["Cache-Control": "max-age=10"]) { $1 }, body: "v\(count)")
            }
            _ = try await harness.send()
            harness.time.advance(by: 10)
            return (harness, try await harness.send())
        }

        @Test(
            "A 304 with the stored validator, or with none, updates the response it validated (§4.3.4)",
            arguments: [
                (
                    ["Last-Modified": HTTPCacheFreshnessTests.start(-100)],
                    ["Last-Modified": HTTPCacheFreshnessTests.start(-100)]
                ),
                (
                    ["ETag": #""v1""#, "Last-Modified": HTTPCacheFreshnessTests.start(-100)],
                    ["Last-Modified": HTTPCacheFreshnessTests.start(-100)]
                ),
                (["ETag": #""v1""#, "Last-Modified": HTTPCacheFreshnessTests.start(-100)], ["ETag": #""v1""#]),
                (["Last-Modified": HTTPCacheFreshnessTests.start(-100)], [:]),
            ])
        func matchedValidator(stored: [String: String], notModified: [String: String]) async throws {
            let (harness, answer) = try await Self.revalidated(stored: stored, notModified: notModified)
            #expect(answer.body == "v1")
            #expect(answer.headers["cache-status"] == "APIKit; fwd=stale; fwd-status=304")
            #expect(try await harness.send().fromCache, "the 304's max-age counts")
            #expect(harness.requests.count == 2)
        }

        @Test("An error answering the validation is the call's; the stored response stays")
        func errorDuringValidation() async throws {
            let harness = CacheHarness { _, count in
                count == 2
                    ? .success(status: 503, body: "down")
                    : .success(headers: ["Cache-Control": "max-age=10", "ETag": "\"v\""], body: "v\(count)")
            }
            _ = try await harness.send()
            harness.time.advance(by: 10)
            #expect(try await harness.send().status == 503)
            #expect(try await harness.send(CacheCall(headers: ["Cache-Control": "max-stale"])).body == "v1")
        }

        @Test("Without a validator a stale response is fetched again, unconditionally")
        func noValidator() async throws {
            let harness = CacheHarness { _, count in
                .success(headers: ["Cache-Control": "max-age=10"], body: "v\(count)")
            }
            _ = try await harness.send()
            harness.time.advance(by: 10)
            #expect(try await harness.send().body == "v2")
            #expect(harness.requests[1].value(forHTTPHeaderField: "If-None-Match") == nil)
            #expect(harness.requests[1].value(forHTTPHeaderField: "If-Modified-Since") == nil)
        }

        @Test("A response with no-cache is validated every time, even while fresh (§5.2.2.4)")
        func responseNoCache() async throws {
            let harness = CacheHarness { request, _ in
                request.value(forHTTPHeaderField: "If-None-Match") != nil
                    ? .success(status: 304)
                    : .success(headers: ["Cache-Control": "max-age=100, no-cache", "ETag": "\"e\""], body: "stored")
            }
            _ = try await harness.send()
            let validated = try await harness.send()
            #expect(validated.body == "stored")
            #expect(validated.headers["cache-status"] == "APIKit; fwd=stale; fwd-status=304")
            #expect(harness.requests.count == 2)
        }

        @Test("A request with its own conditional or Range header passes through untouched")
        func callersConditional() async throws {
            let harness = CacheHarness { request, _ in
                request.value(forHTTPHeaderField: "If-None-Match") == "\"mine\""
                    ? .success(status: 304)
                    : .success(headers: ["Cache-Control": "max-age=100", "ETag": "\"e\""], body: "stored")
            }
            _ = try await harness.send()
            let own = try await harness.send(CacheCall(headers: ["If-None-Match": "\"mine\""]))
            #expect(own.status == 304)
            #expect(!own.fromCache)
            _ = try await harness.send(CacheCall(headers: ["Range": "bytes=0-1"]))
            #expect(harness.requests.count == 3)
        }
    }
}
