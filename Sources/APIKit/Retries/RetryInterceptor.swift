/// A ``RetryPolicy`` as a link of the chain: passes the request on, and again after the
/// policy's delay while the policy says the outcome should be retried.
///
/// The outermost link: every retry goes through the credential store, the session's
/// interceptors and the logger again. Only a transport's failure or a response is retried —
/// never a build error, an interceptor's failure or a cancellation. A body cut off before its
/// announced end (``DownloadError/incompleteBody(received:expected:)``) is retried like a lost
/// connection. A response not retried is returned as it is; the request's own status check runs
/// after the chain.
///
/// With a ``RetryBudget``, the first attempt deposits, and each retry the policy calls for is
/// withdrawn before its wait; a refused retry ends the call at once with the last outcome, the
/// refusal noted in `refusal` (for the context of a response's outcome) and in the context of a
/// failure. The budget is asked here, not by a link of its own: only this link knows that an
/// outcome will be retried (the policy, the attempt count, the method), and a link further in
/// would see the retry only after its wait.
///
/// Each retry is reported to the call's observer (``CallEvent/Stage/retryScheduled(delay:reason:)``)
/// before its wait, a refused one as ``CallEvent/Stage/retryRefused(_:)``.
struct RetryInterceptor: Interceptor {
    let policy: RetryPolicy
    /// Where the waits and the current date come from.
    let time: any TimeSource
    /// Where a refused retry is noted for the call's outcome; `nil` without a budget.
    var refusal: Locked<RetryRefusal?>? = nil

    func intercept(
        _ urlRequest: URLRequest,
        context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        var attempt = 1
        let host = policy.budget == nil ? "" : urlRequest.url?.trafficHost ?? ""
        policy.budget?.deposit(host)
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
                if let budget = policy.budget, !budget.withdraw(host) {
                    refusal?.withLock { $0 = .budgetExhausted }
                    try? context.report(.retryRefused(.budgetExhausted))
                    return try outcome.mapError { $0.withContext($0.context.with(retryRefusal: .budgetExhausted)) }
                        .get()
                }
                try? context.report(.retryScheduled(delay: .seconds(wait), reason: Self.reason(seen, now: time.now)))
                delay = wait
            }
            try await time.sleep(for: delay)
            attempt += 1
        }
    }

    /// Why `seen` is retried, as ``CallEvent/Stage/retryScheduled(delay:reason:)`` tells.
    private static func reason(_ seen: Result<TransportResponse, any Error>, now: Date) -> CallEvent.RetryReason {
        switch seen {
        case .success(let response):
            let http = response.urlResponse as? HTTPURLResponse
            let status = http?.statusCode ?? 0
            guard let http, let seconds = RetryAfter.seconds(in: http, now: now) else { return .status(status) }
            return .retryAfter(status: status, seconds: seconds)
        case .failure(let error):
            return .error(error)
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
