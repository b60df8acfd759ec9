/// A ``RetryPolicy`` as a link of the chain: passes the request on, and again after the
/// policy's delay while the policy says the outcome should be retried.
///
/// The outermost link: every retry goes through the credential store, the session's
/// interceptors and the logger again. Only a transport's failure or a response is retried —
/// never a build error, an interceptor's failure or a cancellation. A body cut off before its
/// announced end (``DownloadError/incompleteBody(received:expected:)``) is retried like a lost
/// connection. A response not retried is returned as it is; the request's own status check runs
/// after the chain.
struct RetryInterceptor: Interceptor {
    let policy: RetryPolicy
    /// Where the waits and the current date come from.
    let time: any TimeSource

    func intercept(
        _ urlRequest: URLRequest,
        context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        var attempt = 1
        while true {
            let delay: TimeInterval
            do {
                // scoped: a response given up is dropped (a stream's transfer ends) before the wait
                let outcome: Result<CallResponse, RequestError>
                do {
                    outcome = .success(try await next(urlRequest))
                } catch {
                    outcome = .failure(error)
                }
                guard let seen = Self.transportOutcome(outcome),
                    let wait = policy.retryDelay(after: seen, method: context.method, attempt: attempt, now: time.now)
                else { return try outcome.get() }
                delay = wait
            }
            try await time.sleep(for: delay)
            attempt += 1
        }
    }

    /// What the policy judges: the response, or the transport's own error; `nil` for an outcome
    /// that is never retried.
    private static func transportOutcome(
        _ outcome: Result<CallResponse, RequestError>
    ) -> Result<TransportResponse, any Error>? {
        switch outcome {
        case .success(let response):
            return .success(TransportResponse(data: response.data ?? Data(), urlResponse: response.urlResponse))
        case .failure(.transportFailed(DownloadError.incompleteBody, _)):
            return .failure(URLError(.networkConnectionLost))
        case .failure(.transportFailed(let error, _)):
            return .failure(error)
        case .failure:
            return nil
        }
    }
}
