extension Session {
    /// Sends `request` and writes its response's body to the file at `destination` as it
    /// arrives, without holding the body in memory.
    ///
    /// The body goes to a temporary file in the destination's directory (a hidden
    /// `.NAME.UUID.download`) through the transport's
    /// ``Transport/download(_:to:progress:completion:)``, then is moved to `destination` in one
    /// step (`rename(2)`) once it is complete and checked, **replacing a file already there**.
    /// How the transport writes it:
    /// - ``URLSessionTransport`` (the transport of `Session()`) uses a download task, which on
    ///   Linux too holds the network back while the disk catches up, so memory stays flat however
    ///   large the body. The task writes the body to a file of its own first — corelibs
    ///   Foundation to `<UUID>.tmp` in `NSTemporaryDirectory()` (`$TMPDIR`, else `/tmp`), Apple's
    ///   `URLSession` to its own temporary location — which is moved beside the destination when
    ///   the body is complete (a copy when that folder is on another file system). Where the
    ///   temporary directory is a `tmpfs`, the body sits in memory until then: point `TMPDIR` at
    ///   a directory on disk.
    /// - Other transports (the default built on ``Transport/stream(_:onEvent:)``) write each chunk
    ///   to the hidden file beside the destination as it arrives (``StubTransport`` delivers
    ///   chunks as they arrive; a transport without its own `stream` delivers the body whole, in
    ///   memory).
    ///
    /// On every failure — rejected status, transport error, a body cut off before its
    /// `Content-Length`, a disk error, cancellation — every file of the download is removed,
    /// the transport's own included, before this returns, and a file already at `destination`
    /// is untouched.
    ///
    /// The request goes through the same pipeline as ``response(for:options:)``: encoding,
    /// default headers and query items, options, the request's `intercept(urlRequest:)`, the
    /// session's credential and interceptors' `adapt`; the ``RetryPolicy`` and a replay after a
    /// credential refresh on `401` (each attempt writes a fresh temporary file); then, once the
    /// body is in the file, the request's `intercept(urlResponse:)` and the interceptors'
    /// `inspect` — with the error body of a rejected response (read from the file: its first
    /// 1 MiB; the file is then removed), or an empty one for an accepted response, whose body
    /// is the file — before the file is handed over. The request's parser is not used. The
    /// ``RequestLogger`` logs the transfer as it logs a stream.
    ///
    /// ```swift
    /// let destination = URL(fileURLWithPath: "/tmp/report.pdf")
    /// let download = try await session.download(for: ReportRequest(id: 7), to: destination) { progress in
    ///     if let fraction = progress.fractionReceived { print(Int(fraction * 100), "%") }
    /// }
    /// print(download.byteCount, "bytes at", download.fileURL.path)
    /// ```
    ///
    /// Cancelling the calling `Task` stops the transfer, waits for the transport to end it,
    /// removes the temporary files and throws ``RequestError/cancelled(context:)`` — unless the file was already being moved into
    /// place, in which case the download is returned. The ``RequestOptions/resourceTimeout``
    /// does not apply (a large download may take long); the idle ``RequestOptions/timeout``
    /// does. To resume an interrupted download, opt in with
    /// ``download(for:to:resumable:options:progress:)``.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - destination: A file URL; its directory must exist.
    ///   - options: Options for this call only; they win over the request type's
    ///     ``Request/options`` and the session's ``options``, member by member.
    ///   - progress: Receives the bytes written so far and the expected total (the
    ///     `Content-Length`) after each chunk, in order; none after a cancellation.
    /// - Returns: The file's URL (`destination`), the response and the number of bytes.
    /// - Throws: A ``RequestError``: ``RequestError/unacceptableStatusCode(_:body:response:context:)``
    ///   for a rejected status, with the first 1 MiB of the error body and the
    ///   ``ErrorBodyDecoder`` applied, as `response(for:)` throws it;
    ///   ``RequestError/transportFailed(_:context:)`` with a ``DownloadError`` —
    ///   ``DownloadError/incompleteBody(received:expected:)`` for a body that ended before its
    ///   `Content-Length` on any transport (closed early or reset), a disk error, a destination
    ///   that cannot be replaced — or the transport's error; ``RequestError/cancelled(context:)``.
    public func download<R: Request>(
        for request: R,
        to destination: URL,
        options: RequestOptions? = nil,
        progress: ProgressHandler? = nil
    ) async throws(RequestError) -> DownloadResponse {
        let pipeline = RequestPipeline(request: request, session: self, options: options, progress: progress) { _ in }
        let gate = RequestHandle(onCancel: {})
        let result = await withTaskCancellationHandler {
            await pipeline.downloadResult(to: destination, gate: gate)
        } onCancel: {
            gate.cancel()
        }
        return try result.get()
    }

    /// Sends `request`, writes its response's body to the file at `destination` as it arrives,
    /// and calls `completion` with the outcome.
    ///
    /// The same pipeline, file handling and errors as ``download(for:to:options:progress:)``.
    /// `completion` is called exactly once, never on the calling thread: on
    /// ``completionQueue`` when one is set, else on the `URLSession`'s delegate queue or a
    /// global queue; by then the temporary file is gone, and the file is at `destination` only
    /// on success. ``RequestHandle/cancel()`` stops the transfer and the completion receives
    /// ``RequestError/cancelled(context:)`` once the temporary file is removed — unless the
    /// file was already being moved into place.
    ///
    /// ```swift
    /// let handle = session.download(ReportRequest(id: 7), to: destination) { result in
    ///     print(result.map(\.byteCount))   // Result<Int64, RequestError>
    /// }
    /// handle.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - destination: A file URL; its directory must exist.
    ///   - options: Options for this call only.
    ///   - progress: Receives the bytes written so far and the expected total after each chunk.
    ///   - completion: Receives the ``DownloadResponse`` or a ``RequestError``.
    /// - Returns: A handle that cancels the download.
    @discardableResult
    public func download<R: Request>(
        _ request: R,
        to destination: URL,
        options: RequestOptions? = nil,
        progress: ProgressHandler? = nil,
        completion: @escaping @Sendable (Result<DownloadResponse, RequestError>) -> Void
    ) -> RequestHandle {
        let pipeline = RequestPipeline(request: request, session: self, options: options, progress: progress) { _ in }
        let cancellation = CancellationBridge()
        let gate = RequestHandle(onCancel: { cancellation.cancel() })
        let task = Task {
            let result = await pipeline.downloadResult(to: destination, gate: gate)
            pipeline.delivery.async { completion(result) }
        }
        cancellation.register { task.cancel() }
        return gate
    }
}

extension Request {
    /// Sends this request through `session` and writes its response's body to `destination`;
    /// see ``Session/download(for:to:options:progress:)``.
    ///
    /// ```swift
    /// let download = try await ReportRequest(id: 7).download(to: destination, using: api)
    /// ```
    ///
    /// - Parameters:
    ///   - destination: A file URL; its directory must exist. A file there is replaced on
    ///     success only.
    ///   - session: The session that sends the request; ``Session/shared`` by default.
    ///   - options: Options for this call only.
    ///   - progress: Receives the bytes written so far and the expected total after each chunk.
    /// - Returns: The file's URL, the response and the number of bytes.
    /// - Throws: A ``RequestError``, as ``Session/download(for:to:options:progress:)`` throws it.
    public func download(
        to destination: URL,
        using session: Session = .shared,
        options: RequestOptions? = nil,
        progress: ProgressHandler? = nil
    ) async throws(RequestError) -> DownloadResponse {
        try await session.download(for: self, to: destination, options: options, progress: progress)
    }

    /// Sends this request through `session` and writes its response's body to `destination`:
    /// the earlier spelling of ``download(to:using:options:progress:)``.
    ///
    /// `session:` names a `URLSession` in ``perform(session:completionQueue:completion:)``;
    /// a ``Session`` is passed with `using:`.
    ///
    /// - Parameters:
    ///   - destination: A file URL; its directory must exist.
    ///   - session: The session that sends the request.
    ///   - options: Options for this call only.
    ///   - progress: Receives the bytes written so far and the expected total after each chunk.
    /// - Returns: The file's URL, the response and the number of bytes.
    /// - Throws: What ``download(to:using:options:progress:)`` throws.
    @available(*, deprecated, renamed: "download(to:using:options:progress:)")
    public func download(
        to destination: URL,
        session: Session,
        options: RequestOptions? = nil,
        progress: ProgressHandler? = nil
    ) async throws(RequestError) -> DownloadResponse {
        try await download(to: destination, using: session, options: options, progress: progress)
    }
}
