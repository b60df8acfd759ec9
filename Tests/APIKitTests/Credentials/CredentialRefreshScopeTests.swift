import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("Credential refreshes that wait for each other: a wait that would never end is not made")
struct CredentialRefreshScopeTests {
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

    /// The task-local scope of a task of `refreshes`.
    static func scope(_ refreshes: CredentialRefreshScope.Refresh...) -> [ObjectIdentifier: UInt64] {
        Dictionary(uniqueKeysWithValues: refreshes.map { ($0.store, $0.number) })
    }

    /// Whether a request of a task of `refresh` passes the step of `store`'s store.
    static func passes(_ store: CredentialRefreshScope.Refresh, from refresh: CredentialRefreshScope.Refresh) -> Bool {
        CredentialRefreshScope.$refreshes.withValue(scope(refresh)) { CredentialRefreshScope.passes(store.store) }
    }

    @Test("which refresh waits for which: a task passes the steps of the refreshes that wait for its own")
    func waits() throws {
        let identities = [Identity(), Identity(), Identity(), Identity()]
        try withExtendedLifetime(identities) {
            let (a, b, c, d) = (
                CredentialRefreshScope.started(ObjectIdentifier(identities[0])),
                CredentialRefreshScope.started(ObjectIdentifier(identities[1])),
                CredentialRefreshScope.started(ObjectIdentifier(identities[2])),
                CredentialRefreshScope.started(ObjectIdentifier(identities[3]))
            )
            defer { for refresh in [a, b, c, d] { CredentialRefreshScope.ended(refresh) } }
            // a task outside every refresh passes no step and records no wait
            #expect(!CredentialRefreshScope.passes(a.store))
            let outside = try #require(CredentialRefreshScope.wait(for: a.store))
            #expect(outside.waiters.isEmpty)
            // B's refresh waits for C's, and A's for B's
            let bWaits = CredentialRefreshScope.$refreshes.withValue(Self.scope(b)) {
                CredentialRefreshScope.wait(for: c.store)
            }
            let aWaits = CredentialRefreshScope.$refreshes.withValue(Self.scope(a)) {
                CredentialRefreshScope.wait(for: b.store)
            }
            let cWaits = try CredentialRefreshScope.$refreshes.withValue(Self.scope(c)) {
                #expect(CredentialRefreshScope.passes(c.store), "its own store")
                #expect(CredentialRefreshScope.passes(b.store))
                #expect(CredentialRefreshScope.passes(a.store), "A waits for C through B")
                #expect(!CredentialRefreshScope.passes(d.store))
                #expect(CredentialRefreshScope.wait(for: a.store) == nil, "C waiting for A would never end")
                return try #require(CredentialRefreshScope.wait(for: d.store))
            }
            // A's refresh no longer waits for B's: C's refresh waits for A's no more through it
            CredentialRefreshScope.stopWaiting(try #require(aWaits))
            CredentialRefreshScope.$refreshes.withValue(Self.scope(c)) {
                #expect(!CredentialRefreshScope.passes(a.store))
                #expect(CredentialRefreshScope.passes(b.store))
            }
            for waiting in [bWaits, cWaits, outside] { CredentialRefreshScope.stopWaiting(try #require(waiting)) }
            CredentialRefreshScope.$refreshes.withValue(Self.scope(c)) {
                #expect(!CredentialRefreshScope.passes(b.store), "no wait left")
            }
        }
    }

    @Test("two tasks of one refresh waiting for another: the wait stays recorded until both stopped")
    func countedWaits() throws {
        let identities = [Identity(), Identity()]
        try withExtendedLifetime(identities) {
            let a = CredentialRefreshScope.started(ObjectIdentifier(identities[0]))
            let b = CredentialRefreshScope.started(ObjectIdentifier(identities[1]))
            defer { for refresh in [a, b] { CredentialRefreshScope.ended(refresh) } }
            let waits = try (0..<2).map { _ in
                try #require(
                    CredentialRefreshScope.$refreshes.withValue(Self.scope(a)) {
                        CredentialRefreshScope.wait(for: b.store)
                    })
            }
            CredentialRefreshScope.stopWaiting(waits[0])
            #expect(Self.passes(a, from: b))
            CredentialRefreshScope.stopWaiting(waits[1])
            #expect(!Self.passes(a, from: b))
        }
    }

    @Test("a refresh that ended counts no more: a task it started, still running, passes no step")
    func endedRefresh() {
        let identity = Identity()
        withExtendedLifetime(identity) {
            let refresh = CredentialRefreshScope.started(ObjectIdentifier(identity))
            #expect(Self.passes(refresh, from: refresh))
            CredentialRefreshScope.ended(refresh)
            #expect(!Self.passes(refresh, from: refresh))
            // a later refresh of the same store is another one
            let later = CredentialRefreshScope.started(ObjectIdentifier(identity))
            #expect(!Self.passes(refresh, from: refresh))
            CredentialRefreshScope.ended(later)
        }
    }

    @Test("the wait of a task that outlives its refresh counts no more, nor for the store's next refresh")
    func waitOutlivingItsRefresh() throws {
        let identities = [Identity(), Identity()]
        try withExtendedLifetime(identities) {
            let w = CredentialRefreshScope.started(ObjectIdentifier(identities[0]))
            let x = CredentialRefreshScope.started(ObjectIdentifier(identities[1]))
            defer { CredentialRefreshScope.ended(x) }
            // a task W's refresh started waits for X's refresh
            let waiting = try #require(
                CredentialRefreshScope.$refreshes.withValue(Self.scope(w)) {
                    CredentialRefreshScope.wait(for: x.store)
                })
            defer { CredentialRefreshScope.stopWaiting(waiting) }
            #expect(Self.passes(w, from: x))
            // W's refresh ended, its task still waits: X's requests go through W's step as any other
            CredentialRefreshScope.ended(w)
            #expect(!Self.passes(w, from: x))
            let next = CredentialRefreshScope.started(w.store)
            defer { CredentialRefreshScope.ended(next) }
            #expect(!Self.passes(w, from: x))
            #expect(
                CredentialRefreshScope.$refreshes.withValue(Self.scope(next)) {
                    CredentialRefreshScope.wait(for: x.store)
                }.map(CredentialRefreshScope.stopWaiting) != nil, "the next refresh of W may wait for X")
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
        defer { withExtendedLifetime(other) {} }
        let requester = CredentialRefreshScope.started(ObjectIdentifier(other))
        defer { CredentialRefreshScope.ended(requester) }
        let storeRefresh = try #require(CredentialRefreshScope.refresh(of: ObjectIdentifier(store)))
        let storeWaits = try #require(
            CredentialRefreshScope.$refreshes.withValue(Self.scope(storeRefresh)) {
                CredentialRefreshScope.wait(for: requester.store)
            })
        defer { CredentialRefreshScope.stopWaiting(storeWaits) }
        let (authorization, refreshed) = await CredentialRefreshScope.$refreshes.withValue(Self.scope(requester)) {
            (
                await Self.outcome { try await store.authorize(URLRequest(url: stubBase)) },
                await Self.outcome { try await store.refresh(after: ticket) }
            )
        }
        gate.record(true)
        try await waiting.value
        #expect(try authorization.get() == nil, "to pass as it is")
        guard case .failure(let failure as CredentialRefreshFailed) = refreshed,
            let cycle = failure.underlyingError as? CredentialRefreshCycle
        else {
            Issue.record("expected a CredentialRefreshFailed of the cycle, got \(refreshed)")
            return
        }
        #expect(cycle.description.contains("CountingAuthenticator"))
        #expect(
            try await store.authorize(URLRequest(url: stubBase))?.0.headerValue("Authorization") == "Bearer token-1")
    }
}
