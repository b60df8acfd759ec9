/// The pipeline's loop for requests that may be sent more than once: retries
/// (``RetryPolicy``) and replays after a credential refresh (``CredentialStore``).
///
/// One `Task`, attached to the ``RequestHandle`` once, runs every attempt: authorize, the
/// interceptors' `adapt`, send, then either wait and go round again, or the interceptors'
/// `inspect` and the response stages. Cancelling the handle cancels that `Task`, which stops the
/// transfer or the wait in progress; the handle has already delivered the cancellation, and
/// every later step checks ``RequestHandle/isFinished`` before it acts. Outcomes are claimed
/// through the handle, so the completion runs exactly once whatever races.
extension RequestPipeline {
    /// The policy to run the attempt loop with, or `nil` for a request sent once without a
    /// credential (the plain pipeline).
    ///
    /// The common case — no policy of the request type's, the session's sending once, no
    /// credential store — costs two field reads: the policy is neither copied nor validated.
    func attemptPolicy() throws(RequestError) -> RetryPolicy? {
        let policy: RetryPolicy
        if let own = request.retryPolicy {
            policy = own
        } else if session.retryPolicy.maxAttempts == 1, session.credentialStore == nil {
            return nil
        } else {
            policy = session.retryPolicy
        }
        do {
            try policy.validate()
        } catch {
            throw .buildFailed(error, context: request.initialContext)
        }
        guard policy.maxAttempts > 1 || session.credentialStore != nil else { return nil }
        return policy
    }

    /// Sends `first`, and again as `policy` and the session's credential store say, then finishes.
    func runAttempts(first: URLRequest, policy: RetryPolicy, handle: RequestHandle) async {
        let credentials = session.credentialStore?.storage
        var attempt = 0
        var replayed = false
        var prepared: URLRequest? = first
        while !handle.isFinished {
            attempt += 1
            var urlRequest: URLRequest
            if let built = prepared {
                urlRequest = built
                prepared = nil
            } else {
                // Built again for each attempt: a body stream (a multipart file) is read once.
                do {
                    urlRequest = try prepare()
                } catch {
                    fail(error.withContext(error.context.with(attempts: attempt)), handle: handle)
                    return
                }
            }
            var ticket = CredentialTicket()
            if let credentials {
                do {
                    (urlRequest, ticket) = try await credentials.authorize(urlRequest)
                } catch {
                    fail(.requestInterceptorFailed(error, context: context(attempt, urlRequest.url)), handle: handle)
                    return
                }
                do {
                    try checkFraming(urlRequest, source: .authenticator(credentials.authenticatorName))
                } catch {
                    fail(error.withContext(error.context.with(attempts: attempt)), handle: handle)
                    return
                }
            }
            do {
                urlRequest = try await adapted(urlRequest, attempt: attempt, handle: handle)
            } catch {
                fail(error, handle: handle)
                return
            }
            guard !handle.isFinished else { return }
            let result = await transfer(urlRequest, handle: handle)
            guard !handle.isFinished else { return }

            if let credentials, !replayed, case .success(let response) = result,
                let http = response.urlResponse as? HTTPURLResponse, credentials.isUnauthorized(http)
            {
                replayed = true
                do {
                    try await credentials.refresh(after: ticket)
                } catch {
                    fail(.requestInterceptorFailed(error, context: context(attempt, urlRequest.url)), handle: handle)
                    return
                }
                continue
            }
            if let delay = policy.retryDelay(
                after: result, method: request.method, attempt: attempt, now: session.time.now)
            {
                // Throws only when cancelled; the loop's condition then ends it.
                try? await session.time.sleep(for: delay)
                continue
            }
            await inspectAndFinish(result, url: urlRequest.url, attempt: attempt, handle: handle)
            return
        }
    }

    /// The context of attempt number `attempt`; made only when needed (describing
    /// the request type and redacting the URL cost more than encoding).
    private func context(_ attempt: Int, _ url: URL?) -> RequestContext {
        request.initialContext.with(url: url).with(attempts: attempt)
    }

    /// Runs the session's `adapt` hooks in list order.
    func adapted(
        _ urlRequest: URLRequest,
        attempt: Int,
        handle: RequestHandle
    ) async throws(RequestError) -> URLRequest {
        var adapted = urlRequest
        for interceptor in session.interceptors {
            guard !handle.isFinished else { return adapted }
            do {
                adapted = try await interceptor.adapt(adapted, for: context(attempt, adapted.url))
            } catch {
                throw .requestInterceptorFailed(error, context: context(attempt, adapted.url))
            }
            do {
                try checkFraming(adapted, source: .interceptor(String(describing: type(of: interceptor))))
            } catch {
                throw error.withContext(error.context.with(attempts: attempt))
            }
        }
        return adapted
    }

    /// Sends `urlRequest` and waits for the transport; cancelling the task stops the transfer.
    /// Each attempt is logged, and reports progress, as a single send does.
    private func transfer(
        _ urlRequest: URLRequest,
        handle: RequestHandle
    ) async -> Result<TransportResponse, any Error> {
        let transfer = CancellationBridge()
        return await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<TransportResponse, any Error>, Never>) in
                let task = startTransfer(urlRequest, handle: handle) { result in
                    continuation.resume(returning: result)
                }
                transfer.register { task.cancel() }
            }
        } onCancel: {
            transfer.cancel()
        }
    }

    /// Runs the session's `inspect` hooks in reverse order on a response, then the response
    /// stages and the completion, through the delivery.
    private func inspectAndFinish(
        _ result: Result<TransportResponse, any Error>,
        url: URL?,
        attempt: Int,
        handle: RequestHandle
    ) async {
        if case .success(let response) = result {
            for interceptor in session.interceptors.reversed() {
                guard !handle.isFinished else { return }
                do {
                    try await interceptor.inspect(response.urlResponse, data: response.data, for: context(attempt, url))
                } catch {
                    let failure = R.responseValidationError(
                        error,
                        body: response.data,
                        response: response.urlResponse,
                        context: context(attempt, url)
                    )
                    fail(failure, handle: handle)
                    return
                }
            }
        }
        delivery.async { [self] in
            guard handle.claimCompletion() else { return }
            completion(request.outcome(result, context: context(attempt, url)))
        }
    }
}
