/// One call going through the stages a ``Session`` runs, whatever the transport and whichever
/// way it was called: the one attempt sequence behind `response()`, `perform`, `stream()` and
/// `download()`.
///
/// The stages, in order:
///
/// 1. ``prepare()`` — encode, default headers and query items, options, the request's
///    `intercept(urlRequest:)`;
/// 2. the session's chain (``CallChain``): the retry link, the credential link, the session's
///    interceptors in list order, then a terminal stage that hands the request to the
///    transport — a send (``sendTerminal``), a stream (`Streaming/Request+Stream.swift`) or a
///    download (`Downloading/Request+Download.swift`);
/// 3. the request's `intercept(urlResponse:)` (by default the status check), then the body:
///    parsed (``response()``), streamed, or moved to the destination.
///
/// The links are made for each call from the session's settings; a session with none of
/// them runs the terminal stage alone. The ``RequestHandle`` decides, exactly once, whether
/// the outcome is the response, a failure or the cancellation, and keeps a cancelled call's
/// progress from the caller.
final class RequestPipeline<R: Request>: Sendable {
    let request: R
    let session: Session
    /// The options of this call over the request type's over the session's, member by member:
    /// what ``prepare()`` writes into the request and the terminal stage bounds every transfer with.
    let options: RequestOptions
    /// Receives the transfer's progress, when the caller asked for it, until the call is finished.
    let progress: (@Sendable (TransferProgress) -> Void)?
    let handle: RequestHandle
    /// The call's events, when the session observes them; a stream records each of its
    /// connections as a call of its own instead (`openStream`).
    let events: CallRecorder?
    /// The request's ``Request/base``, read once: a computed `base` often parses a URL on every
    /// read, and the build and every context of the call need it.
    let base: URL

    init(
        request: R,
        session: Session,
        options: RequestOptions?,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        handle: RequestHandle = RequestHandle(onCancel: {}),
        events: CallRecorder? = nil
    ) {
        self.request = request
        self.session = session
        self.base = request.base
        self.options = (options ?? RequestOptions()).overriding(request.options).overriding(session.options)
        self.handle = handle
        self.events = events
        // a transfer still reports while its cancellation is delivered: not to the caller
        self.progress = progress.map { progress in { @Sendable step in handle.passOn { progress(step) } } }
    }

    /// The context of the call's errors before its URL is known.
    var initialContext: RequestContext {
        request.initialContext(base: base)
    }

    /// `error` with the error body decoded, when the request type or the session has an
    /// ``ErrorBodyDecoder``.
    func decorated(_ error: RequestError) -> RequestError {
        (request.errorBodyDecoder ?? session.errorBodyDecoder)?.decorate(error) ?? error
    }

    /// Encodes the request, adds the default headers and query items, applies the options and runs the
    /// request's own `intercept(urlRequest:)`.
    func prepare() throws(RequestError) -> URLRequest {
        var built: URLRequest
        do {
            built = try request.encodedURLRequest(base: base)
            if !session.defaultHeaders.isEmpty {
                try session.addDefaultHeaders(to: &built)
            }
            if !session.defaultQueryItems.isEmpty {
                try session.addDefaultQueryItems(to: &built)
            }
            if !options.isEmpty {
                try options.apply(to: &built)
            }
        } catch {
            throw .buildFailed(error, context: initialContext)
        }
        let intercepted: URLRequest
        do {
            intercepted = try request.intercept(urlRequest: built)
        } catch {
            throw .requestInterceptorFailed(error, context: initialContext.with(url: built.url))
        }
        try intercepted.checkFraming(
            source: .requestIntercept, context: initialContext.with(url: intercepted.url))
        return intercepted
    }

    /// The chain of this call around `terminal`: the retry link when the policy allows more
    /// than one attempt, the credential link, the session's interceptors. (The logger reads the
    /// call's events.)
    ///
    /// - Parameters:
    ///   - events: Where the chain and its links report the call's events.
    ///   - delivery: How the call reads the body, as its contexts tell the links.
    ///   - terminal: What hands a request to the transport.
    /// - Throws: ``BuildError/invalidRetryPolicy(_:)`` for a policy that cannot be followed.
    func chain(
        events: CallRecorder?, delivery: RequestContext.BodyDelivery, terminal: @escaping CallChain.Terminal
    ) throws(RequestError) -> CallChain {
        var own: [any Interceptor] = []
        var refusal: Locked<RetryRefusal?>?
        if let policy = try retryPolicy() {
            refusal = policy.budget == nil ? nil : Locked(nil)
            own.append(RetryInterceptor(policy: policy, time: session.time, refusal: refusal))
        }
        if let credentials = session.credentialStore?.storage {
            own.append(CredentialInterceptor(credentials: credentials))
        }
        // the session's list as it is when the library adds no link of its own
        let links = own.isEmpty ? session.interceptors : own + session.interceptors
        let request = request
        let base = base
        let refused = refusal
        // Every link gets a context on every pass: made once. Without links the context is made
        // only for an error. It carries no events: an error outlives the call, and keeps neither
        // its recorder nor the observer (the chain gives the links' contexts the events).
        let declared = links.isEmpty ? nil : initialContext.with(bodyDelivery: delivery)
        return CallChain(
            links: links,
            context: { url, attempts in
                let context = (declared ?? request.initialContext(base: base).with(bodyDelivery: delivery))
                    .with(url: url).with(attempts: attempts)
                guard let refused, let reason = refused.withLock({ $0 }) else { return context }
                return context.with(retryRefusal: reason)
            },
            rejection: { error, body, response, context in
                R.responseValidationError(error, body: body, response: response, context: context)
            },
            events: events,
            // only a link can outlive the call: a chain without links needs none
            detachedTransport: links.isEmpty ? nil : session.transport,
            detachedEvents: links.isEmpty || events == nil ? nil : detachedRecorder,
            terminal: terminal)
    }

    /// The recorder of a send a link makes after its call (``DetachedChain``): a call of its own
    /// in the session's events and log.
    private var detachedRecorder: @Sendable (RequestContext) -> CallRecorder? {
        { [session] context in CallRecorder.make(for: session, context: context) }
    }

    /// The request's `intercept(urlResponse:)` on the head of a stream or a download, its body
    /// not consumed yet: a rejection throws with the body's first bytes.
    func checkHead(of response: CallResponse, context: RequestContext) async throws(RequestError) {
        do {
            try request.intercept(urlResponse: response.urlResponse)
        } catch {
            let body = await response.errorBody()
            throw R.responseValidationError(error, body: body, response: response.urlResponse, context: context)
        }
    }

    /// The policy of this call when it allows a retry; `nil` for a request sent once. The
    /// common case — no policy of the request type's, the session's sending once — reads two
    /// fields: the policy is neither copied nor validated.
    private func retryPolicy() throws(RequestError) -> RetryPolicy? {
        guard let policy = request.retryPolicy ?? (session.retryPolicy.maxAttempts == 1 ? nil : session.retryPolicy)
        else { return nil }
        do {
            try policy.validate()
        } catch {
            throw .buildFailed(error, context: initialContext)
        }
        return policy.maxAttempts > 1 ? policy : nil
    }

    /// The terminal stage of a call that reads the body whole: one transfer through the
    /// transport's `send`, with the caller's progress and bounded by the resource timeout when
    /// there are any.
    func sendTerminal(_ urlRequest: URLRequest, attempt: Int) async throws(RequestError)
        -> CallResponse
    {
        let result: Result<TransportResponse, any Error>
        if progress == nil, options.resourceTimeout == nil {
            do {
                result = .success(try await session.transport.send(urlRequest))
            } catch {
                result = .failure(error)
            }
        } else {
            result = await transfer(urlRequest)
        }
        switch result {
        case .success(let response):
            return CallResponse(urlResponse: response.urlResponse, data: response.data)
        case .failure(let error):
            throw transferError(error, url: urlRequest.url, attempt: attempt)
        }
    }

    /// The error of a transfer that failed: the cancellation when the call was cancelled.
    func transferError(_ error: any Error, url: URL?, attempt: Int) -> RequestError {
        let context = initialContext.with(url: url).with(attempts: attempt)
        if Task.isCancelled || handle.isFinished { return .cancelled(context: context) }
        return .transportFailed(error, context: context)
    }

    /// Sends `urlRequest` through the transport's completion-handler `send`, with the caller's
    /// progress, bounded by the resource timeout; cancelling the task stops the transfer.
    private func transfer(_ urlRequest: URLRequest) async -> Result<
        TransportResponse, any Error
    > {
        let cancellation = CancellationBridge()
        // `prepare()` has checked that the resource timeout is positive and finite.
        let deadline = options.resourceTimeout.map { TransferDeadline(seconds: $0, time: session.time) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<TransportResponse, any Error>, Never>) in
                let task = session.transport.send(urlRequest, progress: progress) { result in
                    if let deadline, !deadline.claim() { return }
                    continuation.resume(returning: result)
                }
                guard let deadline else {
                    cancellation.register { task.cancel() }
                    return
                }
                deadline.arm(cancelling: task) {
                    continuation.resume(returning: .failure(TransferDeadline.timedOut))
                }
                cancellation.register { deadline.cancel() }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Runs the call for a body read whole up to its response stages: the chain around
    /// ``sendTerminal`` with the request ``prepare()`` built (or its failure); `nil` when the
    /// call was cancelled before its outcome was claimed (the handle has reported the
    /// cancellation).
    func exchange(_ prepared: Result<URLRequest, RequestError>) async -> Result<
        Exchanged, RequestError
    >? {
        guard !handle.isFinished else { return nil }
        let result: Result<Exchanged, RequestError>
        do {
            let urlRequest = try prepared.get()
            let chain = try chain(events: events, delivery: .whole, terminal: sendTerminal)
            let response = try await chain.run(urlRequest)
            events?.observeBody(of: response)
            result = .success(Exchanged(response: response, chain: chain, url: urlRequest.url))
        } catch {
            result = .failure(error)
        }
        let claimed = handle.claimCompletion()
        // every step the transfer passed on comes before the outcome
        if progress != nil { await handle.stepsEnded() }
        return claimed ? result : nil
    }

    /// Builds the request (``prepare()``) and records its URL in the handle, for a cancellation.
    func prepared() -> Result<URLRequest, RequestError> {
        do {
            let urlRequest = try prepare()
            handle.note(url: urlRequest.url)
            return .success(urlRequest)
        } catch {
            return .failure(error)
        }
    }

    /// The request's response stages on what ``exchange(_:)`` returned: `intercept(urlResponse:)`,
    /// the parser and `response(from:urlResponse:)`, with the error body decoded on failure.
    func outcome(_ exchanged: Result<Exchanged, RequestError>) -> Result<R.Response, RequestError> {
        switch exchanged {
        case .success(let exchanged):
            request.outcome(
                data: exchanged.response.data ?? Data(), urlResponse: exchanged.response.urlResponse,
                context: exchanged.chain.outcomeContext(url: exchanged.url)
            ).mapError(decorated)
        case .failure(let error):
            .failure(decorated(error))
        }
    }
}

/// A response that came back through the chain, with what names the call's outcome in an
/// error: the chain and the URL the call was built with (the context is made only for an error).
struct Exchanged: Sendable {
    let response: CallResponse
    let chain: CallChain
    let url: URL?
}
