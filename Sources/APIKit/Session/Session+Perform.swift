extension Session {
    /// Builds, sends and parses `request`, and calls `completion` with the outcome.
    ///
    /// The stages run in the order ``Session`` lists. `completion` is called exactly once for
    /// every outcome — success, each failure and cancellation — and never on the calling
    /// thread: on ``completionQueue`` when one is set, else where the transport calls back
    /// (for `URLSession`, its delegate queue), or for outcomes that do not come from the
    /// transport (build errors, cancellation, interceptor failures) on the `URLSession`'s
    /// delegate queue or, with another transport, a global queue.
    ///
    /// ```swift
    /// let handle = session.perform(UserRequest(id: 1), options: RequestOptions(timeout: 5)) { result in
    ///     print(result)   // Result<UserRequest.Response, RequestError>
    /// }
    /// handle.cancel()     // → .failure(.cancelled), unless the response was already being processed
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to perform.
    ///   - options: Options for this call only; they win over the request type's
    ///     ``Request/options`` and the session's ``options``, member by member.
    ///   - completion: Receives the response or a ``RequestError`` naming the stage that failed.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func perform<R: Request>(
        _ request: R,
        options: RequestOptions? = nil,
        completion: @escaping @Sendable (Result<R.Response, RequestError>) -> Void
    ) -> RequestHandle {
        let pipeline = RequestPipeline(request: request, session: self, options: options, completion: completion)
        let handle = pipeline.makeHandle()
        pipeline.start(handle)
        return handle
    }

    /// Builds, sends and parses `request`, and returns its response.
    ///
    /// The same pipeline as ``perform(_:options:completion:)``. Cancelling the calling `Task`
    /// cancels the request: a request not yet sent is never sent, a transfer in flight is
    /// stopped, and the call throws ``RequestError/cancelled(context:)`` — unless the response
    /// was already being processed, whose outcome is returned instead. The call returns
    /// exactly once either way.
    ///
    /// ```swift
    /// do {
    ///     let user = try await session.response(for: UserRequest(id: 1))
    /// } catch {
    ///     print(error.stage, error)   // error is a RequestError
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to perform.
    ///   - options: Options for this call only; they win over the request type's
    ///     ``Request/options`` and the session's ``options``, member by member.
    /// - Returns: The request's ``Request/Response``.
    /// - Throws: A ``RequestError`` naming the stage that failed, or
    ///   ``RequestError/cancelled(context:)``.
    public func response<R: Request>(
        for request: R,
        options: RequestOptions? = nil
    ) async throws(RequestError) -> R.Response {
        try await response(for: request, options: options, reportingTo: nil)
    }

    /// Runs the pipeline for `request` and awaits its outcome; cancelling the `Task` cancels
    /// the request. The one body of both `response(for:)` methods.
    func response<R: Request>(
        for request: R,
        options: RequestOptions?,
        reportingTo progress: ProgressHandler?
    ) async throws(RequestError) -> R.Response {
        let cancellation = CancellationBridge()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<R.Response, RequestError>, Never>) in
                let pipeline = RequestPipeline(
                    request: request,
                    session: self,
                    options: options,
                    progress: progress
                ) { result in
                    continuation.resume(returning: result)
                }
                let handle = pipeline.makeHandle()
                cancellation.register { handle.cancel() }
                pipeline.start(handle)
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }
}
