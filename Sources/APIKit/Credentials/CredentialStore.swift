/// Holds a ``Session``'s current credential in memory and runs one refresh at a time: your
/// ``Authenticator`` and the credential it last produced, shared by every copy of the session.
///
/// The ``Authenticator`` is the protocol you conform to (how a credential is put on a request
/// and how a new one is obtained); the `CredentialStore` is the object APIKit gives the session
/// around it. It keeps the credential between requests, hands it to the authenticator for
/// every attempt and makes sure that however many requests are rejected at once, one refresh
/// runs and the others wait for it. It does not persist anything: save the credential yourself
/// (in the keychain, say) and pass it back as `credential` at launch.
///
/// ```swift
/// let credentials = CredentialStore(BearerAuthenticator(auth: client), credential: savedToken)
/// let api = Session(credentialStore: credentials)
/// ```
///
/// Without a credential (`nil`), requests are sent as they are until the first rejection
/// brings one. A request started while a refresh runs waits for it rather than sending a
/// credential known to be stale.
public final class CredentialStore: Sendable {
    /// The credential and the refresh in flight, typed by the authenticator's credential.
    let storage: any CredentialStoring

    /// Creates the credential store of a session: an authenticator and the credential to start with.
    ///
    /// - Parameters:
    ///   - authenticator: Applies and refreshes the credential.
    ///   - credential: The credential to start with; `nil` to send the first requests
    ///     without one.
    public init<A: Authenticator>(_ authenticator: A, credential: A.Credential? = nil) {
        storage = TypedCredentialStore(authenticator: authenticator, credential: credential)
    }
}

/// What the pipeline needs from a ``CredentialStore``, without its credential type.
protocol CredentialStoring: AnyObject, Sendable {
    /// Applies the current credential (after waiting for a refresh in flight); returns the
    /// request and a ticket naming the credential applied, or `nil` when the request is to pass
    /// as it is: the refresh in flight waits for one the calling task is part of
    /// (``CredentialRefreshScope``). Throws what `apply` threw, a ``CredentialRefreshFailed``,
    /// or `CancellationError` when the waiting task is cancelled.
    func authorize(_ urlRequest: URLRequest) async throws -> (URLRequest, ticket: CredentialTicket)?
    /// Refreshes the credential of `ticket`, or waits for the refresh in flight, or returns at
    /// once when the credential was refreshed since, or throws the failure of a refresh that
    /// ended while this request was out with that credential (``CredentialRefreshFailed``);
    /// `CancellationError` when the waiting task is cancelled, the refresh going on for the
    /// others; a ``CredentialRefreshFailed`` of a ``CredentialRefreshCycle`` when the refresh
    /// waits for one the calling task is part of.
    func refresh(after ticket: CredentialTicket) async throws
    /// Whether `response` rejects the credential.
    nonisolated func isUnauthorized(_ response: HTTPURLResponse) -> Bool
    /// The authenticator's type name, for errors.
    nonisolated var authenticatorName: String { get }
}

/// Which credential a request was sent with: its generation, and how many refreshes had
/// failed by then.
struct CredentialTicket: Sendable, Equatable {
    var generation = 0
    var failures = 0
}

/// The current credential, its generation (bumped by each refresh) and the one refresh in flight.
///
/// A failed refresh fails every request that was out with the rejected credential — also one
/// whose rejection arrives only after the refresh failed — instead of starting another refresh
/// for it; a request sent after the failure may start a new one.
actor TypedCredentialStore<A: Authenticator>: CredentialStoring {
    let authenticator: A
    private var credential: A.Credential?
    private var generation = 0
    private var failures = 0
    private var lastFailure: (any Error)?
    /// The refresh under way, by the generation of the credential it replaces: the requests
    /// rejected with that credential wait for it, and so do those started meanwhile.
    private let refreshes = Flights<Int>()

    nonisolated var authenticatorName: String { String(describing: A.self) }

    init(authenticator: A, credential: A.Credential?) {
        self.authenticator = authenticator
        self.credential = credential
    }

    func authorize(_ urlRequest: URLRequest) async throws -> (URLRequest, ticket: CredentialTicket)? {
        guard try await waitForRefresh() else { return nil }
        var request = urlRequest
        if let credential {
            try authenticator.apply(credential, to: &request)
        }
        return (request, CredentialTicket(generation: generation, failures: failures))
    }

    func refresh(after ticket: CredentialTicket) async throws {
        guard ticket.generation == generation else { return }
        if !isRefreshing {
            if ticket.failures < failures, let lastFailure {
                throw CredentialRefreshFailed(underlyingError: lastFailure)
            }
            _ = refreshes.lead(generation)
            let refresh = CredentialRefreshScope.started(ObjectIdentifier(self))
            // The refresh settles itself, even when every request waiting for it was cancelled.
            // The requests it makes, through this store's session maybe, pass its link as they
            // are while it runs.
            Task { [authenticator, generation] in
                do {
                    let scope = CredentialRefreshScope.refreshes.merging([refresh.store: refresh.number]) { $1 }
                    let fresh = try await CredentialRefreshScope.$refreshes.withValue(scope) {
                        try await authenticator.refresh()
                    }
                    settle(generation, refresh, with: .success(fresh))
                } catch {
                    settle(generation, refresh, with: .failure(error))
                }
            }
        }
        guard try await waitForRefresh() else {
            throw CredentialRefreshFailed(underlyingError: CredentialRefreshCycle(authenticator: authenticatorName))
        }
    }

    /// Whether a refresh is in flight.
    var isRefreshing: Bool { refreshes.isUnderWay(generation) }

    /// How many requests wait for a refresh: for tests.
    nonisolated var waitingForRefresh: Int { refreshes.waiting }

    /// Waits for the refresh in flight, if any, and throws its failure; `false`, without
    /// waiting, when that refresh waits (through others) for a refresh the calling task is part
    /// of, which would then never end. A waiter whose task is cancelled stops waiting at once
    /// with `CancellationError`; the refresh goes on.
    private func waitForRefresh() async throws -> Bool {
        let (waited, failed) = (generation, failures)
        guard refreshes.isUnderWay(waited) else { return true }
        guard let waiting = CredentialRefreshScope.wait(for: ObjectIdentifier(self)) else { return false }
        await refreshes.wait(waited)
        CredentialRefreshScope.stopWaiting(waiting)
        if Task.isCancelled { throw CancellationError() }
        if generation == waited, failures > failed, let lastFailure {
            throw CredentialRefreshFailed(underlyingError: lastFailure)
        }
        return true
    }

    /// Records the outcome of the refresh of generation `refreshed` — the new credential, or the
    /// failure that the requests out with the old one fail with — then wakes its waiters.
    private func settle(
        _ refreshed: Int, _ refresh: CredentialRefreshScope.Refresh, with result: Result<A.Credential, any Error>
    ) {
        switch result {
        case .success(let fresh):
            credential = fresh
            generation += 1
        case .failure(let error):
            failures += 1
            lastFailure = error
        }
        CredentialRefreshScope.ended(refresh)
        refreshes.land(refreshed)
    }

    nonisolated func isUnauthorized(_ response: HTTPURLResponse) -> Bool {
        authenticator.isUnauthorized(response)
    }
}
