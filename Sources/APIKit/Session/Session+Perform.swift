extension Session {
    /// Starts `request` and returns the handle that cancels it: the one body of the completion
    /// API (``Request/perform(using:options:progress:completion:)``), the async road run once in
    /// a task of its own.
    ///
    /// `completion` is called exactly once for every outcome — success, each failure and
    /// cancellation — and never on the calling thread.
    @discardableResult
    func perform<R: Request>(
        _ request: R,
        options: RequestOptions? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<R.Response, RequestError>) -> Void
    ) -> RequestHandle {
        let delivery = Delivery(for: self)
        let decoder = request.errorBodyDecoder ?? errorBodyDecoder
        let events = CallRecorder.make(for: self, context: request.initialContext)
        let handle = RequestHandle(onCancelAt: { url in
            let error = RequestError.cancelled(context: request.initialContext.with(url: url))
            events?.end(Result<Void, RequestError>.failure(error))
            delivery.async { completion(.failure(decoder?.decorate(error) ?? error)) }
        })
        let pipeline = RequestPipeline(
            request: request, session: self, options: options, progress: progress, handle: handle, events: events)
        // Built here, in the caller's thread: a build error is the outcome before `perform`
        // returns, and a cancellation names the URL.
        let prepared = pipeline.prepared()
        if case .failure(let error) = prepared {
            if handle.claimCompletion() {
                let decorated = pipeline.decorated(error)
                events?.end(Result<Void, RequestError>.failure(decorated))
                delivery.async { completion(.failure(decorated)) }
            }
            return handle
        }
        // the response stages run where the completion is called
        let task = delivery.run {
            await pipeline.exchange(prepared)
        } deliver: { exchanged in
            let outcome = pipeline.outcome(exchanged)
            events?.end(outcome)
            completion(outcome)
        }
        handle.attach(TaskCancellation(task: task))
        return handle
    }

    /// Runs `request` in the calling task and returns its outcome; cancelling the task cancels
    /// the request. The one body of the async API (``Request/response(using:options:progress:)``).
    func response<R: Request>(
        for request: R,
        options: RequestOptions? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(RequestError) -> R.Response {
        let handle = RequestHandle(onCancel: {})
        let events = CallRecorder.make(for: self, context: request.initialContext)
        let pipeline = RequestPipeline(
            request: request, session: self, options: options, progress: progress, handle: handle, events: events)
        let exchanged = await withTaskCancellationHandler {
            // cancelled before it started: nothing is built or sent
            handle.isFinished ? nil : await pipeline.exchange(pipeline.prepared())
        } onCancel: {
            handle.cancel()
        }
        guard let exchanged else {
            let error = RequestError.cancelled(context: request.initialContext.with(url: handle.url))
            events?.end(Result<Void, RequestError>.failure(error))
            throw error
        }
        let outcome = pipeline.outcome(exchanged)
        events?.end(outcome)
        return try outcome.get()
    }
}
