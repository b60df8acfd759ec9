/// Puts a credential on requests and gets a new one when the server rejects it: the protocol
/// you conform to, which a ``CredentialStore`` drives for a ``Session``.
///
/// An authenticator says *how* (put the token in a header, ask the auth server for a new
/// one); the ``CredentialStore`` you wrap it in holds the current credential, shared by every
/// copy of the session (``Session/credentialStore``), and makes sure one refresh runs at a time.
///
/// When a response says the credential is no longer accepted (``isUnauthorized(_:)``, by
/// default status 401), the session calls ``refresh()`` and sends the request again with the
/// new credential. However many requests are rejected at once, **one** refresh runs: the others
/// wait for it and are replayed with its credential. A request is replayed once at most; a
/// second rejection is reported as ``RequestError/unacceptableStatusCode(_:body:response:context:)``.
/// When the refresh throws, every request waiting for it fails with
/// ``RequestError/requestInterceptorFailed(_:context:)`` carrying a ``CredentialRefreshFailed``
/// that wraps the refresh's error.
///
/// ```swift
/// struct BearerAuthenticator: Authenticator {
///     let auth: AuthClient
///
///     func apply(_ token: String, to urlRequest: inout URLRequest) throws {
///         urlRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
///     }
///
///     func refresh() async throws -> String {
///         try await auth.newAccessToken()
///     }
/// }
///
/// let api = Session(credentialStore: CredentialStore(BearerAuthenticator(auth: client), credential: savedToken))
/// ```
public protocol Authenticator: Sendable {
    /// The credential: a token, a token pair, a signed cookie.
    associatedtype Credential: Sendable

    /// Puts `credential` on `urlRequest`; runs for every attempt, before the session's
    /// interceptors adapt the request.
    ///
    /// - Parameters:
    ///   - credential: The current credential.
    ///   - urlRequest: The request to authorize.
    /// - Throws: Any error, to stop the request; reported as
    ///   ``RequestError/requestInterceptorFailed(_:context:)``.
    func apply(_ credential: Credential, to urlRequest: inout URLRequest) throws

    /// Gets a new credential; never runs twice at the same time for one ``CredentialStore``.
    ///
    /// It may call a token endpoint through the session that holds the store: the requests it
    /// makes while it runs — in its task, or in tasks it starts with `Task {}`, which inherit its
    /// task-local values (not `Task.detached`) — pass the store's credential step as they are: no
    /// credential applied, no refresh on their `401`, rather than wait for this refresh. Once it
    /// has returned, a task it started sends its requests as any other. Two stores whose
    /// refreshes call through each other's sessions never wait for each other forever: a request
    /// of one refresh passes the other store's step as it is when that store's refresh waits
    /// (directly or through others) for the first — whether it started from the first's request
    /// or was already running. Which request passes depends on which refresh waited first: a
    /// token endpoint that then gets no credential and needs one fails its refresh, and the
    /// refresh waiting for it fails too. In the rare order where a request had its credential
    /// applied before the wait showed, it fails after its `401`, without a replay, with a
    /// ``CredentialRefreshFailed`` whose description names the refresh it could not wait for.
    ///
    /// - Returns: The credential for the requests waiting and all later ones.
    /// - Throws: Any error; every request waiting for this refresh fails with it, wrapped in
    ///   ``CredentialRefreshFailed``.
    func refresh() async throws -> Credential

    /// Whether `response` rejects the credential, so that a refresh and a replay may help.
    ///
    /// - Parameter response: A response to one attempt.
    /// - Returns: `true` for status 401 by default.
    func isUnauthorized(_ response: HTTPURLResponse) -> Bool
}

extension Authenticator {
    /// Status 401 Unauthorized rejects the credential.
    ///
    /// - Parameter response: A response to one attempt.
    /// - Returns: Whether the status code is 401.
    public func isUnauthorized(_ response: HTTPURLResponse) -> Bool {
        response.statusCode == 401
    }
}
