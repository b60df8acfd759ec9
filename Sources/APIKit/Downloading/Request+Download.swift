extension Request {
    /// Sends this request through `session` and writes its response's body to the file at
    /// `destination` as it arrives, without holding the body in memory.
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
    /// is untouched; unless the download is resumable (below).
    ///
    /// The request goes through the same stages as ``response(using:options:progress:)``:
    /// encoding, default headers and query items, options, the request's
    /// `intercept(urlRequest:)`, then the session's chain — the ``RetryPolicy`` and a replay
    /// after a credential refresh on `401` (each attempt writes a fresh temporary file), the
    /// session's ``Session/interceptors``, which see the response head with the body pending
    /// (``CallResponse/data`` is `nil`) — then, once the body is in the file, the request's
    /// `intercept(urlResponse:)`, once per response: a rejected response throws with its error
    /// body (read from the file: its first 1 MiB; the file is then removed) before anything is
    /// handed over. The request's parser is not used. The ``RequestLogger`` logs the transfer
    /// as it logs a stream.
    ///
    /// ```swift
    /// let destination = URL(fileURLWithPath: "/tmp/report.pdf")
    /// let download = try await ReportRequest(id: 7).download(to: destination, using: api) { progress in
    ///     if let total = progress.expectedBytesToReceive, total > 0 { print(progress.bytesReceived * 100 / total, "%") }
    /// }
    /// print(download.byteCount, "bytes at", download.fileURL.path)
    /// ```
    ///
    /// Cancelling the calling `Task` stops the transfer, waits for the transport to end it,
    /// removes the temporary files (a resumable download keeps its file, below) and throws
    /// ``RequestError/cancelled(context:)`` — unless the file was already being moved into
    /// place, in which case the download is returned. The
    /// ``RequestOptions/resourceTimeout`` does not apply (a large download may take long); the
    /// idle ``RequestOptions/timeout`` does.
    ///
    /// **Resuming.** With `resumable: true`, a download that fails after the response arrived
    /// — a transport error mid-body, a body shorter than its `Content-Length`, a cancellation
    /// (one that comes once the body is complete, before it is handed over, keeps the whole file,
    /// and its resume fetches the last byte again), a status outside `200..<300` on a resumed attempt (its body goes to a file of its own) but
    /// `416`, which means the partial file cannot be continued — keeps its partial temporary
    /// file (hidden, next to `destination`, never `destination` itself), and the thrown ``RequestError`` carries a ``DownloadResumeData`` as
    /// ``RequestError/downloadResumeData``. Pass it as `resumingFrom` to fetch only the rest (a
    /// `Range` request, with `If-Range` when the first response had a strong `ETag` or an old
    /// enough `Last-Modified`); a retry of the ``RetryPolicy`` after such a failure resumes in the
    /// same way. A failure before any response leaves nothing, and the error carries no resume
    /// data; so does a `2xx` response that `intercept(urlResponse:)` rejects once its body has
    /// gone to the partial file. A resumable download writes the chunks of the transport's
    /// ``Transport/stream(_:onEvent:)`` itself, as they arrive: through ``URLSessionTransport`` on
    /// Linux, whose data delegate has no back-pressure, a network faster than the disk queues
    /// chunks in memory (`Benchmarks/README.md`, "Download 1 GB"); a plain download stays flat.
    ///
    /// ```swift
    /// do {
    ///     _ = try await ReportRequest(id: 7).download(to: destination, using: api, resumable: true)
    /// } catch {
    ///     if let resume = error.downloadResumeData {
    ///         _ = try await ReportRequest(id: 7).download(to: destination, using: api, resumingFrom: resume)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - destination: A file URL; its directory must exist.
    ///   - session: The session that sends the request; `Session()` by default
    ///     (``URLSessionTransport/shared``, nothing else set).
    ///   - resumable: `true` to keep the partial file of a failed download, to resume it;
    ///     `false` (the default) to remove every file of a failed download.
    ///   - resumeData: What a failed resumable download left, to fetch only the rest; the
    ///     download is then resumable too. `nil` (the default) to start from the first byte.
    ///   - options: Options for this call only; they win over the request type's ``options``
    ///     and the session's, member by member.
    ///   - progress: Receives the bytes written so far and the expected total (the
    ///     `Content-Length`) as they grow — after each chunk, or over ``URLSessionTransport`` on
    ///     Linux every 10 ms — in order, the whole body last; none after a cancellation.
    /// - Returns: The file's URL (`destination`), the response and the number of bytes.
    /// - Throws: A ``RequestError``: ``RequestError/unacceptableStatusCode(_:body:response:context:)``
    ///   for a rejected status, with the first 1 MiB of the error body and the
    ///   ``ErrorBodyDecoder`` applied, as ``response(using:options:progress:)`` throws it;
    ///   ``RequestError/transportFailed(_:context:)`` with a ``DownloadError`` —
    ///   ``DownloadError/incompleteBody(received:expected:)`` for a body that ended before its
    ///   `Content-Length` on any transport (closed early or reset), a disk error, a destination
    ///   that cannot be replaced; when resuming, ``DownloadError/rangeNotSatisfiable(bytesReceived:)``
    ///   for a `416` (the partial file is removed, no resume data),
    ///   ``DownloadError/contentRangeMismatch(expectedStart:contentRange:)`` for a `206` that
    ///   does not continue the file, ``DownloadError/partialFileUnusable(_:bytesReceived:)`` for
    ///   a partial file gone or shorter (nothing sent) — or the transport's error;
    ///   ``RequestError/cancelled(context:)``;
    ///   with ``RequestError/downloadResumeData`` when a resumable download kept its partial file.
    public func download(
        to destination: URL,
        using session: Session = Session(),
        resumable: Bool = false,
        resumingFrom resumeData: DownloadResumeData? = nil,
        options: RequestOptions? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(RequestError) -> DownloadResponse {
        let handle = RequestHandle(onCancel: {})
        let pipeline = RequestPipeline(
            request: self, session: session, options: options, progress: progress, handle: handle,
            events: CallRecorder.make(for: session, context: initialContext))
        let result = await withTaskCancellationHandler {
            await pipeline.downloadResult(to: destination, resumable: resumable, resuming: resumeData)
        } onCancel: {
            handle.cancel()
        }
        return try result.get()
    }

    /// Sends this request through `session`, writes its response's body to the file at
    /// `destination` as it arrives, and calls `completion` with the outcome: the
    /// completion-handler form of ``download(to:using:resumable:resumingFrom:options:progress:)``.
    ///
    /// The same pipeline, file handling, resuming and errors. `completion` is called exactly
    /// once, never on the calling thread: on the session's ``Session/completionQueue`` when it
    /// has one, else on a global queue; by then the temporary file is gone (or kept, for a
    /// resumable download that failed), and the file is at `destination` only on success.
    /// ``RequestHandle/cancel()`` stops the transfer and the completion receives
    /// ``RequestError/cancelled(context:)`` once the temporary file is removed — unless the
    /// file was already being moved into place.
    ///
    /// ```swift
    /// let handle = ReportRequest(id: 7).download(to: destination, using: api) { result in
    ///     print(result.map(\.byteCount))   // Result<Int64, RequestError>
    /// }
    /// handle.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - destination: A file URL; its directory must exist.
    ///   - session: The session that sends the request.
    ///   - resumable: `true` to keep the partial file of a failed download, to resume it.
    ///   - resumeData: What a failed resumable download left, to fetch only the rest.
    ///   - options: Options for this call only.
    ///   - progress: Receives the bytes written so far and the expected total as they grow.
    ///   - completion: Receives the ``DownloadResponse`` or a ``RequestError``.
    /// - Returns: A handle that cancels the download.
    @discardableResult
    public func download(
        to destination: URL,
        using session: Session,
        resumable: Bool = false,
        resumingFrom resumeData: DownloadResumeData? = nil,
        options: RequestOptions? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<DownloadResponse, RequestError>) -> Void
    ) -> RequestHandle {
        // The cancellation is delivered by the task, once the temporary file is gone.
        let handle = RequestHandle(onCancel: {})
        let pipeline = RequestPipeline(
            request: self, session: session, options: options, progress: progress, handle: handle,
            events: CallRecorder.make(for: session, context: initialContext))
        let delivery = Delivery(for: session)
        let task = delivery.run {
            await pipeline.downloadResult(to: destination, resumable: resumable, resuming: resumeData)
        } deliver: { result in
            completion(result)
        }
        handle.attach(TaskCancellation(task: task))
        return handle
    }
}

/// The pipeline's stages for a download: ``prepare()``, the session's chain around a terminal
/// stage that writes the body of each attempt to a temporary file next to the destination,
/// and the file moved to the destination only after the checks.
///
/// Two ways to write the file, chosen per request:
/// - a download that is not resumable goes through the transport's
///   ``Transport/download(_:to:progress:completion:)`` (``TransportDownloadFile``): the
///   transport writes the file — ``URLSessionTransport`` with a download task, whose writes hold
///   the network back on Linux, so memory stays flat — and APIKit checks it when it is complete;
/// - a resumable download goes through ``Transport/stream(_:onEvent:)`` (``DownloadFile``),
///   writing each chunk itself, so that a transfer that fails keeps the partial file to resume
///   from (a `URLSessionDownloadTask` keeps nothing on corelibs Foundation); a retry resumes
///   from it (`Range`, `If-Range`, set by the terminal stage for each attempt).
///
/// Either way every body goes to a file; the chain sees the head with the body pending, then
/// the request's `intercept(urlResponse:)` judges it, as on every road, and a rejected body's
/// first 1 MiB is read back for the error. A retry or a replay happens before anything is
/// written to the destination.
extension RequestPipeline {
    /// Downloads to `destination`; never throws, the outcome is the result, with the session's
    /// or the request's ``ErrorBodyDecoder`` applied to an error.
    ///
    /// - Parameters:
    ///   - destination: Where the file goes.
    ///   - resumable: Whether a failed attempt keeps its partial file and the error carries
    ///     its ``DownloadResumeData``; a retry then resumes from it.
    ///   - resuming: The interrupted download to continue.
    func downloadResult(
        to destination: URL, resumable: Bool = false, resuming: DownloadResumeData? = nil
    ) async -> Result<DownloadResponse, RequestError> {
        let partial = Locked(resuming)
        let result: Result<DownloadResponse, RequestError>
        do {
            result = .success(
                try await download(to: destination, resumable: resumable || resuming != nil, partial: partial))
        } catch {
            // a partial file being resumed stays resumable whatever stops the call
            result = .failure(decorated(error.with(downloadResumeData: partial.withLock { $0 })))
        }
        // the outcome is decided (a failure too: the handle is finished, no step starts), and every
        // step the transfer passed on comes before it
        _ = handle.claimCompletion()
        if progress != nil { await handle.stepsEnded() }
        events?.end(result)
        return result
    }

    /// - Parameter partial: The partial file the next attempt resumes from; each attempt
    ///   replaces it with what it left.
    private func download(
        to destination: URL, resumable: Bool, partial: Locked<DownloadResumeData?>
    ) async throws(RequestError) -> DownloadResponse {
        // cancelled before it started: nothing is built or sent, as for every other road
        guard !handle.isFinished else { throw .cancelled(context: initialContext) }
        let urlRequest = try prepare()
        handle.note(url: urlRequest.url)
        let chain = try chain(events: events, delivery: .file) { urlRequest, attempt throws(RequestError) in
            try await self.downloadTerminal(
                urlRequest, attempt: attempt, destination: destination, resumable: resumable, partial: partial)
        }
        let response = try await chain.run(urlRequest)
        events?.observeBody(of: response)
        let context = chain.outcomeContext(url: urlRequest.url)
        try await checkHead(of: response, context: context)
        // From here on the download is handed over: a cancellation comes too late.
        guard handle.claimCompletion() else {
            // cancelled with the whole body in the file: a resumable download keeps it
            if let pending = response.pending, case .download(let attempt, _) = pending.kind,
                let kept = attempt.keepForResuming()
            {
                pending.take()
                partial.withLock { $0 = kept }
            }
            throw .cancelled(context: context)
        }
        guard let pending = response.pending, case .download(let attempt, let bytes) = pending.kind else {
            // answered by a link: the body in memory
            let body = response.data ?? Data()
            do {
                try body.write(to: destination, options: .atomic)
            } catch {
                throw .transportFailed(DownloadError.fileWriteFailed(destination, underlying: error), context: context)
            }
            return DownloadResponse(
                fileURL: destination, urlResponse: response.urlResponse, byteCount: Int64(body.count))
        }
        pending.take()
        do {
            try attempt.moveFile(to: destination)
        } catch {
            throw .transportFailed(error, context: context)
        }
        return DownloadResponse(fileURL: destination, urlResponse: response.urlResponse, byteCount: bytes)
    }

    /// The terminal stage of a download: one attempt, resuming from `partial` when it holds a
    /// partial file with a validator.
    private func downloadTerminal(
        _ urlRequest: URLRequest, attempt: Int, destination: URL, resumable: Bool,
        partial: Locked<DownloadResumeData?>
    ) async throws(RequestError) -> CallResponse {
        var urlRequest = urlRequest
        let resuming = partial.withLock { $0 }
        // without a validator the bytes kept may be of another version: ask for all of them
        // (the 200 rewrites the partial file from byte 0)
        if let resuming, resuming.bytesReceived > 0, let validator = resuming.validator {
            urlRequest.setValue("bytes=\(resuming.bytesReceived)-", forHTTPHeaderField: "Range")
            urlRequest.setValue(validator, forHTTPHeaderField: "If-Range")
        }
        let context = initialContext.with(url: urlRequest.url).with(attempts: attempt)
        let file: any DownloadAttempt
        do {
            file = try startDownload(urlRequest, to: destination, resumable: resumable, resuming: resuming)
        } catch {
            partial.withLock { $0 = nil }
            throw .transportFailed(error, context: context)
        }
        let outcome = await file.outcome()
        // The attempt settled its files as it ended: what it left to resume from, if anything
        // (an error body in a file of its own leaves the partial file being resumed as it was).
        partial.withLock { $0 = file.resumeData }
        switch outcome {
        case .cancelled:
            throw .cancelled(context: context)
        case .failed(let error):
            throw transferError(error, url: urlRequest.url, attempt: attempt)
        case .complete(let response, let bytes):
            let tap = BodyTap()
            tap.ended(.success(Int(clamping: bytes)))
            return CallResponse(urlResponse: response, pending: PendingBody(.download(file, bytes: bytes), tap: tap))
        }
    }

    /// Starts one attempt writing to a temporary file: the transport's download, or a stream
    /// written chunk by chunk for a resumable download.
    private func startDownload(
        _ urlRequest: URLRequest, to destination: URL, resumable: Bool, resuming: DownloadResumeData?
    ) throws(DownloadError) -> any DownloadAttempt {
        guard resumable else {
            let file = TransportDownloadFile(destination: destination)
            file.attach(
                session.transport.download(
                    urlRequest, to: file.temporaryURL, progress: progress, completion: file.complete))
            return file
        }
        let file = DownloadFile(destination: destination, progress: progress, resumable: resumable, resuming: resuming)
        try file.checkPartialFile()
        file.attach(session.transport.stream(urlRequest, onEvent: file.receive))
        return file
    }
}
