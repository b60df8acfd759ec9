/// The pipeline's stages for a download: the attempts of ``runAttempts(first:policy:handle:)``
/// — prepare, the credential, the interceptors' `adapt`, retries and a replay after a credential
/// refresh — with the transport's ``Transport/stream(_:onEvent:)`` writing each attempt's body
/// to a temporary file (``DownloadFile``), and the file moved to the destination only after
/// the checks.
///
/// A retry or a replay happens before anything is written to the destination: each attempt
/// starts a fresh temporary file, and a rejected response never has one.
extension RequestPipeline {
    /// Downloads to `destination`; never throws, the outcome is the result, with the session's
    /// or the request's ``ErrorBodyDecoder`` applied to an error.
    ///
    /// - Parameter gate: Decides, exactly once, between handing the file over and the
    ///   cancellation: `cancel()` on it stops the download; the file is moved only after
    ///   ``RequestHandle/claimCompletion()`` succeeded.
    func downloadResult(to destination: URL, gate: RequestHandle) async -> Result<DownloadResponse, RequestError> {
        do {
            return .success(try await download(to: destination, gate: gate))
        } catch {
            return .failure((request.errorBodyDecoder ?? session.errorBodyDecoder)?.decorate(error) ?? error)
        }
    }

    private func download(to destination: URL, gate: RequestHandle) async throws(RequestError) -> DownloadResponse {
        let policy = try attemptPolicy() ?? .none
        let credentials = session.authentication?.store
        var attempt = 0
        var replayed = false
        while true {
            attempt += 1
            guard !gate.isFinished else { throw .cancelled(context: context(attempt, nil)) }
            var urlRequest: URLRequest
            do {
                urlRequest = try prepare()
            } catch {
                throw error.withContext(error.context.with(attempts: attempt))
            }
            var ticket = CredentialTicket()
            if let credentials {
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
            let context = context(attempt, urlRequest.url)
            guard !gate.isFinished else { throw .cancelled(context: context) }

            let file = startDownload(urlRequest, to: destination, gate: gate)
            let outcome = await file.outcome()
            guard !gate.isFinished else {
                file.discard()
                throw .cancelled(context: context)
            }
            let response: URLResponse
            let body: Data
            switch outcome {
            case .cancelled:
                throw .cancelled(context: context)
            case .failed(let error):
                // a body cut short is lost like a dropped connection, and retried like one
                let seen = error is DownloadError ? URLError(.networkConnectionLost) : error
                if let delay = policy.retryDelay(after: .failure(seen), method: request.method, attempt: attempt) {
                    try? await policy.wait(delay)
                    continue
                }
                throw .transportFailed(error, context: context)
            case .rejected(let rejected, _, let errorBody):
                (response, body) = (rejected, errorBody)
            case .accepted(let accepted, _):
                (response, body) = (accepted, Data())
            }

            if let credentials, !replayed, let http = response as? HTTPURLResponse, credentials.isUnauthorized(http) {
                file.discard()
                replayed = true
                do {
                    try await credentials.refresh(after: ticket)
                } catch {
                    throw .requestInterceptorFailed(error, context: context)
                }
                continue
            }
            let transportResponse = TransportResponse(data: body, urlResponse: response)
            if let delay = policy.retryDelay(
                after: .success(transportResponse), method: request.method, attempt: attempt)
            {
                file.discard()
                try? await policy.wait(delay)
                continue
            }
            for interceptor in session.interceptors.reversed() {
                do {
                    try await interceptor.inspect(response, data: body, for: context)
                } catch {
                    file.discard()
                    throw R.responseValidationError(error, body: body, response: response, context: context)
                }
            }
            switch outcome {
            case .rejected(_, let rejection, _):
                throw R.responseValidationError(rejection, body: body, response: response, context: context)
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

    /// Starts one attempt's transfer into a new temporary file next to `destination`, logged
    /// as a stream is, with the caller's progress closure when there is one.
    private func startDownload(_ urlRequest: URLRequest, to destination: URL, gate: RequestHandle) -> DownloadFile {
        let request = request
        var reporting: ProgressHandler?
        if let progress {
            // a transfer still reports while its cancellation is delivered: not to the caller
            reporting = { step in if !gate.isFinished { progress(step) } }
        }
        let file = DownloadFile(
            destination: destination,
            check: { response in
                do {
                    try request.intercept(urlResponse: response)
                    return nil
                } catch {
                    return error
                }
            },
            progress: reporting
        )
        var onEvent: @Sendable (TransportStreamEvent) -> Void = file.receive
        if let logged = session.logger?.begin(urlRequest, requestType: request.initialContext.requestType) {
            let log = StreamLog(logged)
            onEvent = { event in
                log.observe(event)
                file.receive(event)
            }
        }
        file.attach(session.transport.stream(urlRequest, onEvent: onEvent))
        return file
    }

    /// The context of attempt number `attempt`.
    private func context(_ attempt: Int, _ url: URL?) -> RequestContext {
        request.initialContext.with(url: url).with(attempts: attempt)
    }
}
