/// The pipeline's stages for a download: the attempts of ``runAttempts(first:policy:handle:)``
/// — prepare, the credential, the interceptors' `adapt`, retries and a replay after a credential
/// refresh — each writing its body to a temporary file next to the destination, and the file
/// moved to the destination only after the checks.
///
/// Two ways to write the file, chosen per request:
/// - a download that is not resumable goes through the transport's
///   ``Transport/download(_:to:progress:completion:)`` (``TransportDownloadFile``): the
///   transport writes the file — ``URLSessionTransport`` with a download task, whose writes hold
///   the network back on Linux, so memory stays flat — and APIKit checks it when it is complete;
/// - a resumable download goes through ``Transport/stream(_:onEvent:)`` (``DownloadFile``),
///   writing each chunk itself, so that a transfer that fails keeps the partial file to resume
///   from (a `URLSessionDownloadTask` keeps nothing on corelibs Foundation); its response head is
///   checked as it arrives, and a rejected body is never written.
///
/// A retry or a replay happens before anything is written to the destination: each attempt
/// starts a fresh temporary file.
extension RequestPipeline {
    /// Downloads to `destination`; never throws, the outcome is the result, with the session's
    /// or the request's ``ErrorBodyDecoder`` applied to an error.
    ///
    /// - Parameter gate: Decides, exactly once, between handing the file over and the
    ///   cancellation: `cancel()` on it stops the download; the file is moved only after
    ///   ``RequestHandle/claimCompletion()`` succeeded.
    ///   - resumable: Whether a failed attempt keeps its partial file and the error carries
    ///     its ``DownloadResumeData``; a retry then resumes from it.
    ///   - resuming: The interrupted download to continue.
    func downloadResult(
        to destination: URL, gate: RequestHandle, resumable: Bool = false, resuming: DownloadResumeData? = nil
    ) async -> Result<DownloadResponse, RequestError> {
        do {
            return .success(
                try await download(to: destination, gate: gate, resumable: resumable || resuming != nil, from: resuming)
            )
        } catch {
            return .failure(decorated(error))
        }
    }

    private func download(
        to destination: URL, gate: RequestHandle, resumable: Bool, from resuming: DownloadResumeData?
    ) async throws(RequestError) -> DownloadResponse {
        var resuming = resuming
        let policy: RetryPolicy
        do {
            policy = try attemptPolicy() ?? .never
        } catch {
            throw error.with(downloadResumeData: resuming)
        }
        var attempt = 0
        var replayed = false
        while true {
            attempt += 1
            let urlRequest: URLRequest
            let ticket: CredentialTicket
            do {
                (urlRequest, ticket) = try await attemptRequest(attempt, resuming: resuming, gate: gate)
            } catch {
                // a partial file being resumed stays resumable whatever stops the attempt early
                throw error.with(downloadResumeData: resuming)
            }
            let context = context(attempt, urlRequest.url)
            guard !gate.isFinished else {
                throw RequestError.cancelled(context: context).with(downloadResumeData: resuming)
            }

            let file = try startDownload(
                urlRequest, to: destination, gate: gate, resumable: resumable, resuming: resuming, context: context)
            let outcome = await file.outcome()
            resuming = nil
            guard !gate.isFinished else {
                throw RequestError.cancelled(context: context).with(downloadResumeData: file.abandon())
            }
            let response: URLResponse
            let body: Data
            switch outcome {
            case .cancelled:
                throw RequestError.cancelled(context: context).with(downloadResumeData: file.abandon())
            case .failed(let error):
                // a body cut short is lost like a dropped connection, and retried like one —
                // from where it stopped, when resumable
                let seen: any Error
                if case DownloadError.incompleteBody = error {
                    seen = URLError(.networkConnectionLost)
                } else {
                    seen = error
                }
                if let delay = policy.retryDelay(
                    after: .failure(seen), method: request.method, attempt: attempt, now: session.time.now)
                {
                    resuming = file.resumeData
                    try? await session.time.sleep(for: delay)
                    continue
                }
                throw RequestError.transportFailed(error, context: context).with(downloadResumeData: file.abandon())
            case .rejected(let rejected, _, let errorBody):
                (response, body) = (rejected, errorBody)
            case .accepted(let accepted, _):
                (response, body) = (accepted, Data())
            }

            if let credentials = session.credentialStore?.storage, !replayed, let http = response as? HTTPURLResponse,
                credentials.isUnauthorized(http)
            {
                resuming = file.abandon()
                replayed = true
                do {
                    try await credentials.refresh(after: ticket)
                } catch {
                    throw RequestError.requestInterceptorFailed(error, context: context)
                        .with(downloadResumeData: resuming)
                }
                continue
            }
            let transportResponse = TransportResponse(data: body, urlResponse: response)
            if let delay = policy.retryDelay(
                after: .success(transportResponse), method: request.method, attempt: attempt, now: session.time.now)
            {
                resuming = file.abandon()
                try? await session.time.sleep(for: delay)
                continue
            }
            for interceptor in session.interceptors.reversed() {
                do {
                    try await interceptor.inspect(response, data: body, for: context)
                } catch {
                    throw R.responseValidationError(error, body: body, response: response, context: context)
                        .with(downloadResumeData: file.abandon())
                }
            }
            switch outcome {
            case .rejected(_, let rejection, _):
                throw R.responseValidationError(rejection, body: body, response: response, context: context)
                    .with(downloadResumeData: file.abandon())
            case .accepted(_, let bytes):
                // From here on the download is handed over: a cancellation comes too late.
                guard gate.claimCompletion() else {
                    file.discard()
                    throw .cancelled(context: context)
                }
                do {
                    try file.moveFile(to: destination)
                } catch {
                    throw .transportFailed(error, context: context)
                }
                return DownloadResponse(fileURL: destination, urlResponse: response, byteCount: bytes)
            case .failed, .cancelled:
                preconditionFailure("handled above")
            }
        }
    }

    /// The request of attempt number `attempt`: prepared, with `Range` and `If-Range` when it
    /// resumes a partial file that has a validator, authorized and adapted by the interceptors.
    private func attemptRequest(
        _ attempt: Int, resuming: DownloadResumeData?, gate: RequestHandle
    ) async throws(RequestError) -> (URLRequest, CredentialTicket) {
        guard !gate.isFinished else { throw .cancelled(context: context(attempt, nil)) }
        var urlRequest: URLRequest
        do {
            urlRequest = try prepare()
        } catch {
            throw error.withContext(error.context.with(attempts: attempt))
        }
        // without a validator the bytes kept may be of another version: ask for all of them
        // (the 200 rewrites the partial file from byte 0)
        if let resuming, resuming.bytesReceived > 0, let validator = resuming.validator {
            urlRequest.setValue("bytes=\(resuming.bytesReceived)-", forHTTPHeaderField: "Range")
            urlRequest.setValue(validator, forHTTPHeaderField: "If-Range")
        }
        var ticket = CredentialTicket()
        if let credentials = session.credentialStore?.storage {
            do {
                (urlRequest, ticket) = try await credentials.authorize(urlRequest)
            } catch {
                throw .requestInterceptorFailed(error, context: context(attempt, urlRequest.url))
            }
            do {
                try checkFraming(urlRequest, source: .authenticator(credentials.authenticatorName))
            } catch {
                throw error.withContext(error.context.with(attempts: attempt))
            }
        }
        if !session.interceptors.isEmpty {
            urlRequest = try await adapted(urlRequest, attempt: attempt, handle: gate)
        }
        return (urlRequest, ticket)
    }

    /// Starts one attempt's transfer into a new temporary file next to `destination`, logged
    /// as a stream is, with the caller's progress closure when there is one: through the
    /// transport's `download` unless the download is resumable, else through its `stream`.
    ///
    /// - Throws: ``DownloadError/partialFileUnusable(_:bytesReceived:)`` for a `resuming`
    ///   whose partial file is gone or too short; nothing is sent then.
    private func startDownload(
        _ urlRequest: URLRequest, to destination: URL, gate: RequestHandle, resumable: Bool,
        resuming: DownloadResumeData?, context: RequestContext
    ) throws(RequestError) -> any DownloadAttempt {
        let request = request
        var reporting: ProgressHandler?
        if let progress {
            // a transfer still reports while its cancellation is delivered: not to the caller
            reporting = { step in if !gate.isFinished { progress(step) } }
        }
        let check: @Sendable (URLResponse) -> (any Error)? = { response in
            do {
                try request.intercept(urlResponse: response)
                return nil
            } catch {
                return error
            }
        }
        guard resumable else {
            let file = TransportDownloadFile(destination: destination, check: check)
            file.attach(
                startLoggedDownload(
                    urlRequest, to: file.temporaryURL, progress: reporting, completion: file.complete))
            return file
        }
        let file = DownloadFile(
            destination: destination,
            check: check,
            progress: reporting,
            resumable: resumable,
            resuming: resuming,
            url: urlRequest.url
        )
        do {
            try file.checkPartialFile()
        } catch {
            throw .transportFailed(error, context: context)
        }
        file.attach(startLoggedStream(urlRequest, onEvent: file.receive))
        return file
    }

    /// The context of attempt number `attempt`.
    private func context(_ attempt: Int, _ url: URL?) -> RequestContext {
        request.initialContext.with(url: url).with(attempts: attempt)
    }

    /// Hands `urlRequest` to the transport's download, logged through the session's logger when
    /// it has one, as a stream is: the request when it is sent, then the response with the size
    /// of the file, or the error.
    private func startLoggedDownload(
        _ urlRequest: URLRequest, to fileURL: URL, progress: ProgressHandler?,
        completion: @escaping @Sendable (Result<URLResponse, any Error>) -> Void
    ) -> any TransportTask {
        guard
            let logged = session.logger?.begin(
                urlRequest, requestType: request.initialContext.requestType, time: session.time)
        else {
            return session.transport.download(urlRequest, to: fileURL, progress: progress, completion: completion)
        }
        return session.transport.download(urlRequest, to: fileURL, progress: progress) { result in
            switch result {
            case .success(let response):
                let size =
                    (try? FileManager.default.attributesOfItem(atPath: fileURL.path)[.size] as? NSNumber)?.intValue
                logged.end(streamed: response, bodySize: size ?? 0)
            case .failure(let error):
                logged.end(.failure(error))
            }
            completion(result)
        }
    }
}
