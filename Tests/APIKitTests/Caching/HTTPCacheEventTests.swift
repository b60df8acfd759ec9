import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("HTTP cache: its outcome is a call event")
    struct HTTPCacheEventTests {
        /// The cache outcomes the calls through `harness` report, in order, and the calls' last
        /// stages.
        private final class Outcomes: Sendable {
            let seen = Protected<[CallEvent.CacheOutcome]>([])

            func session(over harness: CacheHarness) -> Session {
                var session = harness.session
                session.onCallEvent = { [seen] event in
                    if case .cacheOutcome(let outcome) = event.stage { seen.append(outcome) }
                }
                return session
            }
        }

        @Test("A first GET is a miss, a fresh one a hit, a stale one confirmed by a 304 a revalidation")
        func missHitRevalidated() async throws {
            let harness = CacheHarness { request, count in
                if request.value(forHTTPHeaderField: "If-None-Match") == #""v1""# {
                    return .success(status: 304, headers: ["Cache-Control": "max-age=10", "ETag": #""v1""#])
                }
                return .success(headers: ["Cache-Control": "max-age=10", "ETag": #""v1""#], body: "body \(count)")
            }
            let outcomes = Outcomes()
            let session = outcomes.session(over: harness)
            _ = try await CacheCall().response(using: session)
            _ = try await CacheCall().response(using: session)
            harness.time.advance(by: 10)
            let validated = try await CacheCall().response(using: session)
            #expect(validated.fromCache)
            #expect(outcomes.seen.value == [.miss, .hit, .revalidated])
            #expect(harness.requests.count == 2)
        }

        @Test("A stale response the server replaces, and only-if-cached with nothing stored, are misses")
        func replacedAndNotCached() async throws {
            let harness = CacheHarness { _, count in
                .success(headers: ["Cache-Control": "max-age=10", "ETag": #""v\#(count)""#], body: "body \(count)")
            }
            let outcomes = Outcomes()
            let session = outcomes.session(over: harness)
            _ = try await CacheCall().response(using: session)
            harness.time.advance(by: 10)
            let replaced = try await CacheCall().response(using: session)
            #expect(replaced.body == "body 2")
            #expect(!replaced.fromCache)
            let error = await #expect(throws: RequestError.self) {
                try await CacheCall("other", headers: ["Cache-Control": "only-if-cached"]).response(using: session)
            }
            guard case .notCached = error else {
                Issue.record("expected notCached, got \(String(describing: error))")
                return
            }
            #expect(outcomes.seen.value == [.miss, .miss, .miss])
            #expect(harness.requests.count == 2, "only-if-cached sent nothing")
        }
    }
}
