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
protocol CredentialStoring: Sendable {
    /// Applies the current credential (after waiting for a refresh in flight); returns the
    /// request and a ticket naming the credential applied. Throws what `apply` threw, a
    /// ``CredentialRefreshFailed``, or `CancellationError` when the waiting task is cancelled.
    func authorize(_ urlRequest: URLRequest) async throws -> (URLRequest, ticket: CredentialTicket)
    /// Refreshes the credential of `ticket`, or waits for the refresh in flight, or returns at
    /// once when the credential was refreshed since, or throws the failure of a refresh that
    /// ended while this request was out with that credential (``CredentialRefreshFailed``);
    /// `CancellationError` when the waiting task is cancelled, the refresh going on for the others.
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

    func refresh(after ticket: CredentialTicket) async throws {
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
            // the outcome is the store's as soon as the refresh ends, even when every request
            // waiting for it was cancelled
            Task { settle(task, with: await task.result) }
        }
        try await complete(task)
    }

    /// Whether a refresh is in flight.
    var isRefreshing: Bool { refreshing != nil }

    /// Waits for `task` and settles its outcome (the first to do so records it: a waiter, or the
    /// task started with the refresh); throws the refresh's failure. A waiter whose task is
    /// cancelled stops waiting at once with `CancellationError`; the refresh goes on.
    private func complete(_ task: Task<A.Credential, any Error>) async throws {
        guard let result = await Self.result(of: task) else { throw CancellationError() }
        settle(task, with: result)
        if case .failure(let error) = result { throw CredentialRefreshFailed(underlyingError: error) }
    }

    /// Records the outcome of the refresh `task`, unless it was recorded: the new credential, or
    /// the failure that the requests out with the old one fail with.
    private func settle(_ task: Task<A.Credential, any Error>, with result: Result<A.Credential, any Error>) {
        guard refreshing == task else { return }
        refreshing = nil
        switch result {
        case .success(let fresh):
            credential = fresh
            generation += 1
        case .failure(let error):
            failures += 1
            lastFailure = error
        }
    }

    /// `task`'s result, or `nil` as soon as the awaiting task is cancelled: `task` is shared by
    /// every request waiting for the refresh, so it is not cancelled, and `task.value` alone
    /// would not return before it ends.
    private static func result(of task: Task<A.Credential, any Error>) async -> Result<A.Credential, any Error>? {
        typealias Waiter = CheckedContinuation<Result<A.Credential, any Error>?, Never>
        let waiter = Locked<Waiter?>(nil)
        // whichever comes first, the refresh's end or the cancellation, resumes the waiter
        let resume: @Sendable (Result<A.Credential, any Error>?) -> Void = { result in
            waiter.withLock { waiting in
                defer { waiting = nil }
                return waiting
            }?.resume(returning: result)
        }
        let cancellation = CancellationBridge()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                waiter.withLock { $0 = continuation }
                Task { resume(await task.result) }
                cancellation.register { resume(nil) }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    nonisolated func isUnauthorized(_ response: HTTPURLResponse) -> Bool {
        authenticator.isUnauthorized(response)
    }
}
