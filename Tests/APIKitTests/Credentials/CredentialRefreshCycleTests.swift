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
    func waits() {
        let identities = (Identity(), Identity(), Identity(), Identity())
        let (a, b, c, d) = (
            ObjectIdentifier(identities.0), ObjectIdentifier(identities.1), ObjectIdentifier(identities.2),
            ObjectIdentifier(identities.3)
        )
        // a task outside every refresh passes no step and records no wait
        #expect(!CredentialRefreshScope.passes(a))
        #expect(CredentialRefreshScope.wait(for: a))
        // B's refresh waits for C's, and A's for B's
        #expect(CredentialRefreshScope.$stores.withValue([b]) { CredentialRefreshScope.wait(for: c) })
        #expect(CredentialRefreshScope.$stores.withValue([a]) { CredentialRefreshScope.wait(for: b) })
        CredentialRefreshScope.$stores.withValue([c]) {
            #expect(CredentialRefreshScope.passes(c), "its own store")
            #expect(CredentialRefreshScope.passes(b))
            #expect(CredentialRefreshScope.passes(a), "A waits for C through B")
            #expect(!CredentialRefreshScope.passes(d))
            #expect(!CredentialRefreshScope.wait(for: a), "C waiting for A would never end")
            #expect(CredentialRefreshScope.wait(for: d))
        }
        // B's refresh ended: A's no longer waits for C through it
        CredentialRefreshScope.ended(b)
        CredentialRefreshScope.$stores.withValue([c]) {
            #expect(!CredentialRefreshScope.passes(a))
        }
        for store in [a, c, d] { CredentialRefreshScope.ended(store) }
        CredentialRefreshScope.$stores.withValue([c]) {
            #expect(!CredentialRefreshScope.passes(b), "every refresh ended")
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
        CredentialRefreshScope.$stores.withValue([ObjectIdentifier(store)]) {
            #expect(CredentialRefreshScope.wait(for: requester))
        }
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
        CredentialRefreshScope.ended(requester)
    }
}
