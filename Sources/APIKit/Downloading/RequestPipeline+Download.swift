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
/// The transport's download writes every body to its temporary file; the chain sees the head
/// with the body pending, then the request's `intercept(urlResponse:)` judges it, as on every
/// road, and a rejected body's first 1 MiB is read back for the error. A resumable download
/// cannot wait: the head decides whether the chunks extend the partial file, so its
/// `intercept(urlResponse:)` runs in the terminal stage when the head arrives, a rejected body
/// is kept in memory (up to 1 MiB) and never written, and the verdict is applied after the
/// chain. A retry or a replay happens before anything is written to the destination.
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
        if let rejection = response.rejection {
            throw R.responseValidationError(
                rejection, body: response.data ?? Data(), response: response.urlResponse, context: context)
        }
        let file: (attempt: any DownloadAttempt, bytes: Int64)?
        if let pending = response.pending, case .download(let attempt, let bytes) = pending.kind {
            file = (attempt, bytes)
        } else {
            file = nil  // answered by a link: the body in memory
        }
        do {
            try request.intercept(urlResponse: response.urlResponse)
        } catch {
            let body = response.data ?? (file?.attempt as? TransportDownloadFile)?.errorBody() ?? Data()
            throw R.responseValidationError(error, body: body, response: response.urlResponse, context: context)
        }
        // From here on the download is handed over: a cancellation comes too late.
        guard handle.claimCompletion() else { throw .cancelled(context: context) }
        guard let file, let pending = response.pending else {
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
            try file.attempt.moveFile(to: destination)
        } catch {
            throw .transportFailed(error, context: context)
        }
        return DownloadResponse(fileURL: destination, urlResponse: response.urlResponse, byteCount: file.bytes)
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
        switch outcome {
        case .cancelled:
            partial.withLock { $0 = file.abandon() }
            throw .cancelled(context: context)
        case .failed(let error):
            partial.withLock { $0 = file.abandon() }
            throw transferError(error, url: urlRequest.url, attempt: attempt)
        case .rejected(let response, let rejection, let body):
            partial.withLock { $0 = file.abandon() }
            return CallResponse(urlResponse: response, rejectedBody: body, rejection: rejection)
        case .accepted(let response, let bytes):
            partial.withLock { $0 = nil }
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
            // the whole body goes to the file; the request's check runs after the chain
            let file = TransportDownloadFile(destination: destination)
            file.attach(
                session.transport.download(
                    urlRequest, to: file.temporaryURL, progress: progress, completion: file.complete))
            return file
        }
        let request = request
        let check: @Sendable (URLResponse) -> (any Error)? = { response in
            do {
                try request.intercept(urlResponse: response)
                return nil
            } catch {
                return error
            }
        }
        let file = DownloadFile(
            destination: destination,
            check: check,
            progress: progress,
            resumable: resumable,
            resuming: resuming
        )
        try file.checkPartialFile()
        file.attach(session.transport.stream(urlRequest, onEvent: file.receive))
        return file
    }
}
