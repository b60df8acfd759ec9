/// The credential of a ``Session`` and the one refresh in flight: an ``Authenticator`` and
/// its current credential, shared by every copy of the session.
///
/// ```swift
/// let authentication = Authentication(BearerAuthenticator(auth: client), credential: savedToken)
/// let api = Session(authentication: authentication)
/// ```
///
/// Without a credential (`nil`), requests are sent as they are until the first rejection
/// brings one. A request started while a refresh runs waits for it rather than sending a
/// credential known to be stale.
public final class Authentication: Sendable {
    let store: any CredentialStoring

    /// Creates the credential state of a session: an authenticator and the credential to start with.
    ///
    /// - Parameters:
    ///   - authenticator: Applies and refreshes the credential.
    ///   - credential: The credential to start with; `nil` to send the first requests
    ///     without one.
    public init<A: Authenticator>(_ authenticator: A, credential: A.Credential? = nil) {
        store = CredentialStore(authenticator: authenticator, credential: credential)
    }
}

/// What the pipeline needs from an ``Authentication``, without its credential type.
protocol CredentialStoring: Sendable {
    /// Applies the current credential (after waiting for a refresh in flight); returns the
    /// request and a ticket naming the credential applied.
    func authorize(_ urlRequest: URLRequest) async throws -> (URLRequest, ticket: CredentialTicket)
    /// Refreshes the credential of `ticket`, or waits for the refresh in flight, or returns at
    /// once when the credential was refreshed since, or throws the failure of a refresh that
    /// ended while this request was out with that credential.
    func refresh(after ticket: CredentialTicket) async throws(CredentialRefreshFailed)
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
actor CredentialStore<A: Authenticator>: CredentialStoring {
    let authenticator: A
    private var credential: A.Credential?
    private var generation = 0
    private var refreshing: Task<A.Credential, any Error>?
    private var failures = 0
    private var lastFailure: (any Error)?

    nonisolated var authenticatorName: String { String(describing: A.self) }

    init(authenticator: A, credential: A.Credential?) {
        self.authenticator = authenticator
        self.credential = credential
    }

    func authorize(_ urlRequest: URLRequest) async throws -> (URLRequest, ticket: CredentialTicket) {
        if let refreshing {
            try await complete(refreshing)
        }
        var request = urlRequest
        if let credential {
            try authenticator.apply(credential, to: &request)
        }
        return (request, CredentialTicket(generation: generation, failures: failures))
    }

    func refresh(after ticket: CredentialTicket) async throws(CredentialRefreshFailed) {
        guard ticket.generation == generation else { return }
        if refreshing == nil, ticket.failures < failures, let lastFailure {
            throw CredentialRefreshFailed(underlyingError: lastFailure)
        }
        let task: Task<A.Credential, any Error>
        if let refreshing {
            task = refreshing
        } else {
            let authenticator = self.authenticator
            task = Task { try await authenticator.refresh() }
            refreshing = task
        }
        try await complete(task)
    }

    /// Waits for `task`; the first waiter to resume stores its credential (or clears it after a
    /// failure), the others find it done.
    private func complete(_ task: Task<A.Credential, any Error>) async throws(CredentialRefreshFailed) {
        do {
            let fresh = try await task.value
            if refreshing == task {
                credential = fresh
                generation += 1
                refreshing = nil
            }
        } catch {
            if refreshing == task {
                refreshing = nil
                failures += 1
                lastFailure = error
            }
            throw CredentialRefreshFailed(underlyingError: error)
        }
    }

    nonisolated func isUnauthorized(_ response: HTTPURLResponse) -> Bool {
        authenticator.isUnauthorized(response)
    }
}
