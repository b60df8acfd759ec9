extension Session {
    /// Starts the pipeline for `request` and returns the handle that cancels it: the one body of
    /// the completion API (``Request/perform(using:options:progress:completion:)``).
    ///
    /// `completion` is called exactly once for every outcome — success, each failure and
    /// cancellation — and never on the calling thread.
    @discardableResult
    func perform<R: Request>(
        _ request: R,
        options: RequestOptions? = nil,
        progress: ProgressHandler? = nil,
        completion: @escaping @Sendable (Result<R.Response, RequestError>) -> Void
    ) -> RequestHandle {
        let pipeline = RequestPipeline(
            request: request, session: self, options: options, progress: progress, completion: completion)
        let handle = pipeline.makeHandle()
        pipeline.start(handle)
        return handle
    }

    /// Runs the pipeline for `request` and awaits its outcome; cancelling the `Task` cancels
    /// the request. The one body of the async API (``Request/response(using:options:progress:)``).
    ///
    /// A request sent once, without interceptors, progress, a resource timeout or a completion
    /// queue runs in the calling task, awaiting the transport's `async` send
    /// (`RequestPipeline+Inline.swift`); any other runs the completion road and awaits its
    /// completion.
    func response<R: Request>(
        for request: R,
        options: RequestOptions? = nil,
        progress: ProgressHandler? = nil
    ) async throws(RequestError) -> R.Response {
        if RequestPipeline.runsInCallersTask(request, session: self, options: options, progress: progress) {
            let pipeline = RequestPipeline(request: request, session: self, options: options) { _ in }
            return try await pipeline.outcomeInCallersTask().get()
        }
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
