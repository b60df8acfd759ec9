extension Session {
    /// Builds, sends and parses `request`, reports the transfer's progress, and calls
    /// `completion` with the outcome.
    ///
    /// The same pipeline and guarantees as ``perform(_:options:completion:)``. `progress` is
    /// called as the transfer runs by ``URLSessionTransport`` — the transport of `Session()` and
    /// ``Session/shared`` — and by other transports that observe their transfers; one that
    /// cannot (``StubTransport``, a `URLSession` passed as the transport) reports the totals in
    /// two steps once the transfer has ended. It is called where the transport reports, in order, and no step
    /// starts once the outcome is decided: every step of a response comes before `completion`,
    /// and after `cancel()` no further step is passed on (one already running may still end
    /// while the cancellation is delivered). A multipart upload from disk reports as its
    /// stream is read.
    ///
    /// ```swift
    /// let session = Session()
    /// session.perform(UploadRequest(file: file), progress: { progress in
    ///     print("sent \(progress.bytesSent) of \(progress.expectedBytesToSend ?? -1)")
    /// }) { result in
    ///     print(result)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to perform.
    ///   - options: Options for this call only.
    ///   - progress: Receives the bytes sent and received so far, each time they change.
    ///   - completion: Receives the response or a ``RequestError`` naming the stage that failed.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func perform<R: Request>(
        _ request: R,
        options: RequestOptions? = nil,
        progress: @escaping ProgressHandler,
        completion: @escaping @Sendable (Result<R.Response, RequestError>) -> Void
    ) -> RequestHandle {
        let pipeline = RequestPipeline(
            request: request,
            session: self,
            options: options,
            progress: progress,
            completion: completion
        )
        let handle = pipeline.makeHandle()
        pipeline.start(handle)
        return handle
    }

    /// Builds, sends and parses `request`, reports the transfer's progress, and returns its
    /// response.
    ///
    /// The same pipeline and cancellation as ``response(for:options:)``; `progress` is called
    /// as for ``perform(_:options:progress:completion:)``: every step of the response before the
    /// call returns, none passed on after a cancellation.
    ///
    /// ```swift
    /// let session = Session()
    /// let file = try await session.response(for: DownloadRequest(id: 7), progress: { progress in
    ///     if let fraction = progress.fractionReceived { print(Int(fraction * 100), "%") }
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to perform.
    ///   - options: Options for this call only.
    ///   - progress: Receives the bytes sent and received so far, each time they change.
    /// - Returns: The request's ``Request/Response``.
    /// - Throws: A ``RequestError`` naming the stage that failed, or
    ///   ``RequestError/cancelled(context:)``.
    public func response<R: Request>(
        for request: R,
        options: RequestOptions? = nil,
        progress: @escaping ProgressHandler
    ) async throws(RequestError) -> R.Response {
        try await response(for: request, options: options, reportingTo: progress)
    }
}
