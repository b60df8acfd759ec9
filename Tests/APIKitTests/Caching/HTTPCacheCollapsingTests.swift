import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("HTTP cache: collapsing identical requests (collapsesRequests)")
    struct HTTPCacheCollapsingTests {
        /// A harness whose cache collapses requests, answering each request after 5 s on its
        /// clock with `respond`.
        private static func harness(
            collapses: Bool = true, _ respond: @escaping @Sendable (URLRequest, Int) -> StubResponse
        ) -> CacheHarness {
            CacheHarness(collapsesRequests: collapses, respond)
        }

        private static let cacheable: @Sendable (URLRequest, Int) -> StubResponse = { _, count in
            .success(headers: ["Cache-Control": "max-age=60"], body: "body \(count)", delay: 5)
        }

        /// Starts `call` through `session` in a task of its own.
        private static func start(
            _ call: CacheCall = CacheCall(), _ session: Session
        ) -> Task<CacheAnswer, any Error> {
            Task { try await call.response(using: session) }
        }

        /// Starts a first call, waits until it reaches the network, then `count` more, and waits
        /// until they all wait for it.
        private static func leaderAndWaiters(
            _ harness: CacheHarness, session: Session, waiters count: Int, _ calls: [CacheCall]? = nil
        ) async -> (Task<CacheAnswer, any Error>, [Task<CacheAnswer, any Error>]) {
            let leader = start(CacheCall(), session)
            #expect(await harness.time.nextWait() == 5)
            let waiters = (0..<count).map { index in start(calls?[index] ?? CacheCall(), session) }
            #expect(await eventually { harness.cache.flights.waiting == count })
            return (leader, waiters)
        }

        @Test("Identical GETs wait for the first one's request and receive the stored copy")
        func collapsed() async throws {
            let harness = Self.harness(Self.cacheable)
            let seen = Protected<[CallEvent.CacheOutcome]>([])
            var session = harness.session
            session.onCallEvent = { event in
                if case .cacheOutcome(let outcome) = event.stage { seen.append(outcome) }
            }
            let (leader, waiters) = await Self.leaderAndWaiters(harness, session: session, waiters: 2)
            harness.time.advance(by: 5)
            let first = try await leader.value
            #expect(first.body == "body 1")
            #expect(!first.fromCache)
            for waiter in waiters {
                let answer = try await waiter.value
                #expect(answer.body == "body 1")
                #expect(answer.fromCache)
                #expect(answer.headers["cache-status"] == "APIKit; fwd=miss; collapsed")
            }
            #expect(harness.requests.count == 1)
            #expect(seen.value.sorted { "\($0)" < "\($1)" } == [.collapsed, .collapsed, .miss])
        }

        @Test("Without collapsesRequests, each call sends its own request")
        func offByDefault() async throws {
            #expect(HTTPCache().collapsesRequests == false)
            let harness = Self.harness(collapses: false, Self.cacheable)
            let session = harness.session
            let calls = (0..<3).map { _ in Self.start(CacheCall(), session) }
            for _ in 0..<3 { _ = await harness.time.nextWait() }
            harness.time.advance(by: 5)
            for call in calls { _ = try await call.value }
            #expect(harness.requests.count == 3)
        }

        @Test("When the first response may not be stored, the waiters send their own requests")
        func notStorable() async throws {
            let harness = Self.harness { _, count in
                .success(headers: ["Cache-Control": "no-store"], body: "body \(count)", delay: 5)
            }
            let session = harness.session
            let (leader, waiters) = await Self.leaderAndWaiters(harness, session: session, waiters: 2)
            harness.time.advance(by: 5)
            #expect(try await leader.value.body == "body 1")
            // the waiters' own requests
            _ = await harness.time.nextWait()
            _ = await harness.time.nextWait()
            harness.time.advance(by: 5)
            let bodies = Set(try await waiters.asyncMap { try await $0.value.body })
            #expect(bodies == ["body 2", "body 3"])
            #expect(harness.requests.count == 3)
        }

        @Test("When the first request fails, the waiters send their own requests")
        func leaderFails() async throws {
            let harness = Self.harness { _, count in
                count == 1
                    ? .failure(URLError(.cannotConnectToHost), delay: 5)
                    : .success(headers: ["Cache-Control": "max-age=60"], body: "body \(count)", delay: 5)
            }
            let session = harness.session
            let (leader, waiters) = await Self.leaderAndWaiters(harness, session: session, waiters: 2)
            harness.time.advance(by: 5)
            await #expect(throws: RequestError.self) { try await leader.value }
            _ = await harness.time.nextWait()
            _ = await harness.time.nextWait()
            harness.time.advance(by: 5)
            for waiter in waiters { #expect(try await waiter.value.body.hasPrefix("body ")) }
            #expect(harness.requests.count == 3)
        }

        @Test("A cancelled waiter ends alone: the first call and the other waiter complete once each")
        func waiterCancelled() async throws {
            let harness = Self.harness(Self.cacheable)
            let session = harness.session
            let (leader, waiters) = await Self.leaderAndWaiters(harness, session: session, waiters: 2)
            waiters[0].cancel()
            let cancelled = await waiters[0].result
            guard case .failure(let error as RequestError) = cancelled, case .cancelled = error else {
                Issue.record("expected cancelled, got \(cancelled)")
                return
            }
            #expect(harness.cache.flights.waiting == 1)
            harness.time.advance(by: 5)
            #expect(try await leader.value.body == "body 1")
            #expect(try await waiters[1].value.body == "body 1")
            #expect(harness.requests.count == 1)
        }

        @Test("Calls with another credential or a Vary mismatch are not given the first call's response")
        func partitionsAndVary() async throws {
            let harness = Self.harness { _, count in
                .success(
                    headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], body: "body \(count)",
                    delay: 5)
            }
            let session = harness.session
            let other = CacheCall(headers: ["Authorization": "Bearer other"])
            let french = CacheCall(headers: ["Accept-Language": "fr"])
            let leader = Self.start(CacheCall(), session)
            #expect(await harness.time.nextWait() == 5)
            let otherUser = Self.start(other, session)
            #expect(await harness.time.nextWait() == 5, "another credential is another slot: its own request")
            let waiter = Self.start(french, session)
            #expect(await eventually { harness.cache.flights.waiting == 1 })
            harness.time.advance(by: 5)
            _ = try await leader.value
            _ = try await otherUser.value
            #expect(await harness.time.nextWait() == 5, "the French variant is not the one stored")
            harness.time.advance(by: 5)
            #expect(try await waiter.value.body == "body 3")
            #expect(harness.requests.count == 3)
        }
    }
}

extension Array where Element: Sendable {
    /// The elements transformed one after the other by `transform`.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
