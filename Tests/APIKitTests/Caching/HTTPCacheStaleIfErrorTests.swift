import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("HTTP cache: stale-if-error (RFC 5861 §4)")
    struct HTTPCacheStaleIfErrorTests {
        /// A harness whose first answer is stored with `cacheControl` (and an ETag when
        /// `validated`), and whose later answers are `failure`.
        private static func harness(
            _ cacheControl: String, validated: Bool = true, failure: @escaping @Sendable () -> StubResponse
        ) -> CacheHarness {
            CacheHarness { _, count in
                guard count == 1 else { return failure() }
                var headers = ["Cache-Control": cacheControl]
                if validated { headers["ETag"] = #""v1""# }
                return .success(headers: headers, body: "stored")
            }
        }

        private static let unreachable: @Sendable () -> StubResponse = {
            .failure(URLError(.cannotConnectToHost))
        }

        @Test("A stale response is served when the validation cannot reach the server, within stale-if-error")
        func transportFailure() async throws {
            let harness = Self.harness("max-age=10, stale-if-error=60", failure: Self.unreachable)
            _ = try await harness.send()
            harness.time.advance(by: 70)
            let answer = try await harness.send()
            #expect(answer.body == "stored")
            #expect(answer.status == 200)
            #expect(answer.fromCache)
            #expect(answer.headers["cache-status"] == "APIKit; fwd=stale; detail=stale-if-error")
            #expect(answer.headers["age"] == "70")
            #expect(harness.requests.count == 2)
            #expect(harness.requests[1].value(forHTTPHeaderField: "If-None-Match") == #""v1""#, "it was validated")
        }

        @Test("Beyond stale-if-error the call fails with the transport's error")
        func beyondLimit() async throws {
            let harness = Self.harness("max-age=10, stale-if-error=60", failure: Self.unreachable)
            _ = try await harness.send()
            harness.time.advance(by: 71)
            let error = await #expect(throws: RequestError.self) { try await harness.send() }
            guard case .transportFailed = error else {
                Issue.record("expected transportFailed, got \(String(describing: error))")
                return
            }
        }

        @Test(
            "500, 502, 503 and 504 answers are replaced by the stale response, and not stored",
            arguments: [500, 502, 503, 504])
        func serverErrors(status: Int) async throws {
            let harness = Self.harness("max-age=10, stale-if-error=60") {
                .success(status: status, headers: ["Cache-Control": "max-age=100"], body: "error")
            }
            _ = try await harness.send()
            harness.time.advance(by: 20)
            let answer = try await harness.send()
            #expect(answer.body == "stored")
            #expect(answer.status == 200)
            #expect(answer.headers["cache-status"] == "APIKit; fwd=stale; fwd-status=\(status); detail=stale-if-error")
            let again = try await harness.send()
            #expect(again.body == "stored", "the error response was not stored")
            #expect(harness.requests.count == 3)
        }

        @Test("Other statuses, such as 501 or 404, are the call's answer")
        func otherStatuses() async throws {
            for status in [404, 501] {
                let harness = Self.harness("max-age=10, stale-if-error=60") {
                    .success(status: status, body: "answer")
                }
                _ = try await harness.send()
                harness.time.advance(by: 20)
                let answer = try await harness.send()
                #expect(answer.status == status)
                #expect(answer.body == "answer")
                #expect(!answer.fromCache)
            }
        }

        @Test("A stale response without a validator is served too when its replacement fails")
        func withoutValidator() async throws {
            let harness = Self.harness("max-age=10, stale-if-error=60", validated: false, failure: Self.unreachable)
            _ = try await harness.send()
            harness.time.advance(by: 30)
            let answer = try await harness.send()
            #expect(answer.body == "stored")
            #expect(answer.fromCache)
            #expect(harness.requests[1].value(forHTTPHeaderField: "If-None-Match") == nil)
        }

        @Test("The request's stale-if-error allows it, and overrides the response's")
        func requestDirective() async throws {
            let harness = Self.harness("max-age=10", failure: Self.unreachable)
            _ = try await harness.send()
            harness.time.advance(by: 40)
            let allowed = try await harness.send(CacheCall(headers: ["Cache-Control": "stale-if-error=30"]))
            #expect(allowed.body == "stored")
            #expect(allowed.fromCache)
            await #expect(throws: RequestError.self, "stale by 30 s, the request allows 29") {
                try await harness.send(CacheCall(headers: ["Cache-Control": "stale-if-error=29"]))
            }
            await #expect(throws: RequestError.self, "the response alone has no stale-if-error") {
                try await harness.send()
            }
            let stricter = Self.harness("max-age=10, stale-if-error=600", failure: Self.unreachable)
            _ = try await stricter.send()
            stricter.time.advance(by: 40)
            await #expect(throws: RequestError.self, "the request's limit is the caller's") {
                try await stricter.send(CacheCall(headers: ["Cache-Control": "stale-if-error=5"]))
            }
        }

        @Test(
            "must-revalidate and no-cache responses are never served stale", arguments: ["must-revalidate", "no-cache"])
        func neverStale(directive: String) async throws {
            let harness = Self.harness("max-age=10, stale-if-error=600, \(directive)", failure: Self.unreachable)
            _ = try await harness.send()
            harness.time.advance(by: 20)
            await #expect(throws: RequestError.self) { try await harness.send() }
        }

        @Test("A request with no-cache and no stale-if-error of its own gets the error")
        func requestNoCache() async throws {
            let harness = Self.harness("max-age=10, stale-if-error=600", failure: Self.unreachable)
            _ = try await harness.send()
            harness.time.advance(by: 20)
            await #expect(throws: RequestError.self) {
                try await harness.send(CacheCall(headers: ["Cache-Control": "no-cache"]))
            }
        }

        @Test("A cancelled validation is not answered with the stale response")
        func cancellation() async throws {
            let harness = CacheHarness { _, count in
                count == 1
                    ? .success(headers: ["Cache-Control": "max-age=10, stale-if-error=600"], body: "stored")
                    : .success(body: "late", delay: 1000)
            }
            _ = try await harness.send()
            harness.time.advance(by: 20)
            let session = harness.session
            let call = Task { try await CacheCall().response(using: session) }
            #expect(await harness.time.nextWait() == 1000, "the validation is under way")
            call.cancel()
            let result = await call.result
            guard case .failure(let error as RequestError) = result, case .cancelled = error else {
                Issue.record("expected cancelled, got \(result)")
                return
            }
        }

        @Test("The call reports staleIfError as its cache outcome, once")
        func event() async throws {
            let harness = Self.harness("max-age=10, stale-if-error=60", failure: Self.unreachable)
            let seen = Protected<[CallEvent.CacheOutcome]>([])
            var session = harness.session
            session.onCallEvent = { event in
                if case .cacheOutcome(let outcome) = event.stage { seen.append(outcome) }
            }
            _ = try await CacheCall().response(using: session)
            harness.time.advance(by: 20)
            _ = try await CacheCall().response(using: session)
            harness.time.advance(by: 100)
            _ = try? await CacheCall().response(using: session)
            #expect(seen.value == [.miss, .staleIfError, .miss])
        }
    }
}
