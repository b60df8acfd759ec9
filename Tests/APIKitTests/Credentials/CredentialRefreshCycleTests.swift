import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("Credential refreshes that wait for each other: a wait that would never end is not made")
struct CredentialRefreshCycleTests {
    /// An identity standing for a store, alive while the test runs.
    final class Identity: Sendable {}

    /// What `body` returned or threw.
    static func outcome<Value>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    @Test("which refresh waits for which: a task passes the steps of the refreshes that wait for its own")
    func waits() throws {
        let identities = [Identity(), Identity(), Identity(), Identity()]
        try withExtendedLifetime(identities) {
            let (a, b, c, d) = (
                ObjectIdentifier(identities[0]), ObjectIdentifier(identities[1]), ObjectIdentifier(identities[2]),
                ObjectIdentifier(identities[3])
            )
            // a task outside every refresh passes no step and records no wait
            #expect(!CredentialRefreshScope.passes(a))
            let outside = try #require(CredentialRefreshScope.wait(for: a))
            #expect(outside.stores.isEmpty)
            // B's refresh waits for C's, and A's for B's
            let bWaits = CredentialRefreshScope.$stores.withValue([b]) { CredentialRefreshScope.wait(for: c) }
            let aWaits = CredentialRefreshScope.$stores.withValue([a]) { CredentialRefreshScope.wait(for: b) }
            let cWaits = try CredentialRefreshScope.$stores.withValue([c]) {
                #expect(CredentialRefreshScope.passes(c), "its own store")
                #expect(CredentialRefreshScope.passes(b))
                #expect(CredentialRefreshScope.passes(a), "A waits for C through B")
                #expect(!CredentialRefreshScope.passes(d))
                #expect(CredentialRefreshScope.wait(for: a) == nil, "C waiting for A would never end")
                return try #require(CredentialRefreshScope.wait(for: d))
            }
            // A's refresh no longer waits for B's: C's refresh waits for A's no more through it
            CredentialRefreshScope.stopWaiting(try #require(aWaits))
            CredentialRefreshScope.$stores.withValue([c]) {
                #expect(!CredentialRefreshScope.passes(a))
                #expect(CredentialRefreshScope.passes(b))
            }
            for waiting in [bWaits, cWaits, outside] { CredentialRefreshScope.stopWaiting(try #require(waiting)) }
            CredentialRefreshScope.$stores.withValue([c]) {
                #expect(!CredentialRefreshScope.passes(b), "no wait left")
            }
        }
    }

    @Test("two tasks of one refresh waiting for another: the wait stays recorded until both stopped")
    func countedWaits() throws {
        let identities = [Identity(), Identity()]
        try withExtendedLifetime(identities) {
            let (a, b) = (ObjectIdentifier(identities[0]), ObjectIdentifier(identities[1]))
            let first = try #require(
                CredentialRefreshScope.$stores.withValue([a]) { CredentialRefreshScope.wait(for: b) })
            let second = try #require(
                CredentialRefreshScope.$stores.withValue([a]) { CredentialRefreshScope.wait(for: b) })
            CredentialRefreshScope.stopWaiting(first)
            #expect(CredentialRefreshScope.$stores.withValue([b]) { CredentialRefreshScope.passes(a) })
            CredentialRefreshScope.stopWaiting(second)
            #expect(!CredentialRefreshScope.$stores.withValue([b]) { CredentialRefreshScope.passes(a) })
        }
    }

    @Test("a request of a refresh that the store's running refresh waits for: not applied, and no wait after a 401")
    func storeDoesNotWaitForItsOwnWaiter() async throws {
        let gate = CompletionProbe<Bool>()
        let store = TypedCredentialStore(authenticator: CountingAuthenticator(gate: gate), credential: "old")
        let ticket = try #require(try await store.authorize(URLRequest(url: stubBase))).ticket
        // the store's refresh starts and is held; a request outside every refresh waits for it
        let waiting = Task { try await store.refresh(after: ticket) }
        for _ in 0..<12_000 where await !store.isRefreshing {  // 120 s only bounds a failure
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        // the store's refresh now waits for another's, whose requests come to this store
        let other = Identity()
        let requester = ObjectIdentifier(other)
        let storeWaits = try #require(
            CredentialRefreshScope.$stores.withValue([ObjectIdentifier(store)]) {
                CredentialRefreshScope.wait(for: requester)
            })
        defer { CredentialRefreshScope.stopWaiting(storeWaits) }
        let (authorization, refreshed) = await CredentialRefreshScope.$stores.withValue([requester]) {
            (
                await Self.outcome { try await store.authorize(URLRequest(url: stubBase)) },
                await Self.outcome { try await store.refresh(after: ticket) }
            )
        }
        #expect(try authorization.get() == nil, "to pass as it is")
        guard case .failure(let failure as CredentialRefreshFailed) = refreshed,
            let cycle = failure.underlyingError as? CredentialRefreshCycle
        else {
            Issue.record("expected a CredentialRefreshFailed of the cycle, got \(refreshed)")
            return
        }
        #expect(cycle.description.contains("CountingAuthenticator"))
        gate.record(true)
        try await waiting.value
        #expect(
            try await store.authorize(URLRequest(url: stubBase))?.0.headerValue("Authorization") == "Bearer token-1")
        withExtendedLifetime(other) {}
    }
}
