extension Session {
    /// Downloads as ``download(for:to:options:progress:)`` does, but a download that fails
    /// keeps its partial file so that it can be resumed.
    ///
    /// When the transfer fails after the response arrived — a transport error mid-body, a
    /// body shorter than its `Content-Length`, a cancellation, a rejected status on a resumed
    /// attempt — the partial temporary file (hidden, next to `destination`, never
    /// `destination` itself) stays, and the thrown ``RequestError`` carries a
    /// ``DownloadResumeData`` as ``RequestError/downloadResumeData``. Pass it to
    /// ``download(for:to:resumingFrom:options:progress:)`` to fetch only the rest. A retry of
    /// the ``RetryPolicy`` after such a failure resumes in the same way. A failure before any
    /// response leaves nothing, and the error carries no resume data.
    ///
    /// A resumable download writes the chunks of the transport's ``Transport/stream(_:onEvent:)``
    /// itself, as they arrive, rather than going through ``Transport/download(_:to:progress:completion:)``:
    /// that is what lets it keep the partial file (a `URLSessionDownloadTask` on Linux keeps
    /// nothing of a failed transfer). The response head is checked as it arrives, so a rejected
    /// body is never written. The trade-off: through ``URLSessionTransport`` on Linux, whose data
    /// delegate has no back-pressure, a network faster than the disk queues chunks in memory
    /// (a 1 GB download over loopback peaked some 220 MB above an idle process); a plain
    /// download stays flat.
    ///
    /// ```swift
    /// do {
    ///     _ = try await session.download(for: ReportRequest(id: 7), to: destination, resumable: true)
    /// } catch {
    ///     if let resume = error.downloadResumeData {
    ///         _ = try await session.download(for: ReportRequest(id: 7), to: destination, resumingFrom: resume)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - destination: A file URL; its directory must exist.
    ///   - resumable: `true` to keep the partial file of a failed download; `false` behaves
    ///     exactly as ``download(for:to:options:progress:)``.
    ///   - options: Options for this call only.
    ///   - progress: Receives the bytes written so far and the expected total after each chunk.
    /// - Returns: The file's URL (`destination`), the response and the number of bytes.
    /// - Throws: A ``RequestError``, as ``download(for:to:options:progress:)`` throws it, with
    ///   ``RequestError/downloadResumeData`` when a partial file was kept.
    public func download<R: Request>(
        for request: R,
        to destination: URL,
        resumable: Bool,
        options: RequestOptions? = nil,
        progress: ProgressHandler? = nil
    ) async throws(RequestError) -> DownloadResponse {
        try await download(request, to: destination, resumable: resumable, resuming: nil, options, progress)
    }

    /// Continues a download that failed, from the end of its partial file.
    ///
    /// Sends `request` with `Range: bytes=N-` (`N` is ``DownloadResumeData/bytesReceived``) and
    /// `If-Range` with the ``DownloadResumeData/validator``; without a validator (the response
    /// had only a weak `ETag`, or no strong `Last-Modified`) it sends neither and the body comes
    /// whole, from byte 0. Either way through the same pipeline as
    /// ``download(for:to:options:progress:)``:
    /// - a `206 Partial Content` whose `Content-Range` starts at `N` is appended to the partial
    ///   file, and the whole file is moved to `destination`;
    /// - a `200` (the server ignored the range, or the resource changed and `If-Range` did not
    ///   match) rewrites the partial file from byte 0, so the result is the new body whole;
    /// - a `416`, or a `206` that does not start at `N`, throws
    ///   ``RequestError/transportFailed(_:context:)`` with
    ///   ``DownloadResumeError/rangeNotSatisfiable(bytesReceived:)`` or
    ///   ``DownloadResumeError/contentRangeMismatch(expectedStart:contentRange:)`` and removes the
    ///   partial file;
    /// - a partial file that is gone or shorter than `N` throws
    ///   ``DownloadResumeError/partialFileUnusable(_:bytesReceived:)`` before anything is sent.
    ///
    /// The resumed download is itself resumable: when it fails again, the error carries new
    /// resume data for the same partial file. Progress counts the bytes of the whole file.
    ///
    /// ```swift
    /// let download = try await session.download(for: ReportRequest(id: 7), to: destination, resumingFrom: resume)
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to send: the one whose download failed.
    ///   - destination: A file URL; its directory must exist. Need not be the original one,
    ///     but the partial file stays in the original's directory until the final move.
    ///   - resumeData: ``RequestError/downloadResumeData`` of the failed download.
    ///   - options: Options for this call only.
    ///   - progress: Receives the bytes of the whole file so far and its expected size.
    /// - Returns: The file's URL (`destination`), the response of this request and the size
    ///   of the whole file.
    /// - Throws: A ``RequestError``, as ``download(for:to:resumable:options:progress:)`` throws it.
    public func download<R: Request>(
        for request: R,
        to destination: URL,
        resumingFrom resumeData: DownloadResumeData,
        options: RequestOptions? = nil,
        progress: ProgressHandler? = nil
    ) async throws(RequestError) -> DownloadResponse {
        try await download(request, to: destination, resumable: true, resuming: resumeData, options, progress)
    }

    /// Sends `request` as ``download(for:to:resumable:options:progress:)`` does and calls
    /// `completion` with the outcome, as ``download(_:to:options:progress:completion:)`` does.
    ///
    /// ```swift
    /// session.download(ReportRequest(id: 7), to: destination, resumable: true) { result in
    ///     if case .failure(let error) = result, let resume = error.downloadResumeData { save(resume) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - destination: A file URL; its directory must exist.
    ///   - resumable: `true` to keep the partial file of a failed download.
    ///   - options: Options for this call only.
    ///   - progress: Receives the bytes written so far and the expected total after each chunk.
    ///   - completion: Receives the ``DownloadResponse`` or a ``RequestError``, with
    ///     ``RequestError/downloadResumeData`` when a partial file was kept.
    /// - Returns: A handle that cancels the download; a cancelled resumable download keeps
    ///   its partial file.
    @discardableResult
    public func download<R: Request>(
        _ request: R,
        to destination: URL,
        resumable: Bool,
        options: RequestOptions? = nil,
        progress: ProgressHandler? = nil,
        completion: @escaping @Sendable (Result<DownloadResponse, RequestError>) -> Void
    ) -> RequestHandle {
        download(request, to: destination, resumable: resumable, resuming: nil, options, progress, completion)
    }

    /// Continues a download that failed as ``download(for:to:resumingFrom:options:progress:)``
    /// does, and calls `completion` with the outcome.
    ///
    /// ```swift
    /// session.download(ReportRequest(id: 7), to: destination, resumingFrom: resume) { result in
    ///     print(result.map(\.byteCount))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to send: the one whose download failed.
    ///   - destination: A file URL; its directory must exist.
    ///   - resumeData: ``RequestError/downloadResumeData`` of the failed download.
    ///   - options: Options for this call only.
    ///   - progress: Receives the bytes of the whole file so far and its expected size.
    ///   - completion: Receives the ``DownloadResponse`` or a ``RequestError``.
    /// - Returns: A handle that cancels the download.
    @discardableResult
    public func download<R: Request>(
        _ request: R,
        to destination: URL,
        resumingFrom resumeData: DownloadResumeData,
        options: RequestOptions? = nil,
        progress: ProgressHandler? = nil,
        completion: @escaping @Sendable (Result<DownloadResponse, RequestError>) -> Void
    ) -> RequestHandle {
        download(request, to: destination, resumable: true, resuming: resumeData, options, progress, completion)
    }

    private func download<R: Request>(
        _ request: R, to destination: URL, resumable: Bool, resuming: DownloadResumeData?,
        _ options: RequestOptions?, _ progress: ProgressHandler?,
        _ completion: @escaping @Sendable (Result<DownloadResponse, RequestError>) -> Void
    ) -> RequestHandle {
        let pipeline = RequestPipeline(request: request, session: self, options: options, progress: progress) { _ in }
        let cancellation = CancellationBridge()
        let gate = RequestHandle(onCancel: { cancellation.cancel() })
        let task = Task {
            let result = await pipeline.downloadResult(
                to: destination, gate: gate, resumable: resumable, resuming: resuming)
            pipeline.delivery.async { completion(result) }
        }
        cancellation.register { task.cancel() }
        return gate
    }

    private func download<R: Request>(
        _ request: R, to destination: URL, resumable: Bool, resuming: DownloadResumeData?,
        _ options: RequestOptions?, _ progress: ProgressHandler?
    ) async throws(RequestError) -> DownloadResponse {
        let pipeline = RequestPipeline(request: request, session: self, options: options, progress: progress) { _ in }
        let gate = RequestHandle(onCancel: {})
        let result = await withTaskCancellationHandler {
            await pipeline.downloadResult(to: destination, gate: gate, resumable: resumable, resuming: resuming)
        } onCancel: {
            gate.cancel()
        }
        return try result.get()
    }
}
