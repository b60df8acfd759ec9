/// A ``CredentialStore`` as a link of the chain: puts the current credential on each pass
/// (after waiting for a refresh in flight), and when the response rejects it, refreshes it —
/// once for every request rejected with the same credential — and sends the request again,
/// once.
///
/// It sits inside the retry link, so a retry is authorized again, and outside the session's
/// interceptors, which see the request with its credential. A failure to authorize or to
/// refresh is reported as ``RequestError/requestInterceptorFailed(_:context:)``, a refresh's
/// wrapped in ``CredentialRefreshFailed``.
struct CredentialInterceptor: Interceptor, HeaderSourceNaming {
    let credentials: any CredentialStoring

    var headerSource: HeaderSource { .authenticator(credentials.authenticatorName) }

    func intercept(
        _ urlRequest: URLRequest,
        context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        // a request of this store's own refresh (a token endpoint called through the session), or
        // of a refresh this store's refresh waits for
        if CredentialRefreshScope.passes(ObjectIdentifier(credentials)) { return try await next(urlRequest) }
        var replayed = false
        while true {
            let authorization: (URLRequest, ticket: CredentialTicket)?
            do {
                authorization = try await credentials.authorize(urlRequest)
            } catch {
                throw Self.failure(error, context: context)
            }
            // `nil`: the refresh in flight waits for one this task is part of
            guard let authorization else { return try await next(urlRequest) }
            let (authorized, ticket) = authorization
            do {
                // scoped: a rejected response is dropped (a stream's transfer ends) before the refresh
                let response = try await next(authorized)
                guard !replayed, let http = response.urlResponse as? HTTPURLResponse, credentials.isUnauthorized(http)
                else { return response }
            }
            replayed = true
            try? context.report(.credentialRefresh)
            do {
                try await credentials.refresh(after: ticket)
            } catch {
                throw Self.failure(error, context: context)
            }
        }
    }

    /// The call's error when authorizing or refreshing threw `error`: its cancellation when the
    /// call was cancelled while waiting for a refresh.
    private static func failure(_ error: any Error, context: RequestContext) -> RequestError {
        // the error outlives the call: it keeps neither the chain nor the events
        let context = context.with(detached: nil).with(events: nil)
        return error is CancellationError && Task.isCancelled
            ? .cancelled(context: context) : .requestInterceptorFailed(error, context: context)
    }
}
