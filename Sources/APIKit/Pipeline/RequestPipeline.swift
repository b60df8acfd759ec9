/// One request going through the stages a ``Session`` runs, whatever the transport: the code
/// behind `perform` (completion) and `response()` (async). A `response()` call sent once without
/// interceptors, progress, a resource timeout or a completion queue runs the same stages in the
/// awaiting task (`RequestPipeline+Inline.swift`); every other call takes the road below.
///
/// The stages, each a method, in order:
///
/// 1. ``start(_:)`` — encode, default headers and query items, options, the request's `intercept(urlRequest:)`;
/// 2. ``adaptAndSend(_:handle:)`` — the session's `adapt` hooks, in list order (only when
///    there are interceptors; they run in a `Task`);
/// 3. ``send(_:handle:)`` — the transport (a retry policy would re-enter here), with the
///    session's ``RequestLogger`` and the caller's progress closure when there are any;
/// 4. ``received(_:url:handle:)`` — the session's `inspect` hooks in reverse order (again in a
///    `Task`, only when there are interceptors);
/// 5. ``finish(_:url:handle:)`` — claims the outcome, then the request's
///    `intercept(urlResponse:)`, parser and `response(from:urlResponse:)`, and the completion.
///
/// With no interceptors nothing is asynchronous but the transport: no `Task` is made and the
/// response is processed where the transport calls back, as before sessions existed.
///
/// With a ``RetryPolicy`` that allows more than one attempt, or a ``CredentialStore``, the
/// stages after ``start(_:)`` run in one `Task` that may go round several times
/// (`RequestPipeline+Attempts.swift`).
///
/// The pipeline holds no mutable state; the ``RequestHandle`` passed along decides, exactly
/// once, whether the outcome is the response, a failure or the cancellation.
final class RequestPipeline<R: Request>: Sendable {
    typealias Completion = @Sendable (sending Result<R.Response, RequestError>) -> Void

    let request: R
    let session: Session
    /// The options of this call over the request type's over the session's, member by member:
    /// what ``prepare()`` writes into every attempt and ``startTransfer(_:handle:completion:)``
    /// bounds every transfer with.
    let options: RequestOptions
    let delivery: Delivery
    let completion: Completion
    /// Receives the transfer's progress, when the caller asked for it.
    let progress: ProgressHandler?

    init(
        request: R,
        session: Session,
        options: RequestOptions?,
        progress: ProgressHandler? = nil,
        completion: @escaping Completion
    ) {
        self.request = request
        self.session = session
        self.options = (options ?? RequestOptions()).overriding(request.options).overriding(session.options)
        self.delivery = Delivery(transport: session.transport, queue: session.completionQueue)
        if let decoder = request.errorBodyDecoder ?? session.errorBodyDecoder {
            self.completion = { result in
                completion(result.mapError(decoder.decorate))
            }
        } else {
            self.completion = completion
        }
        self.progress = progress
    }

    /// `error` with the error body decoded, when the request type or the session has an
    /// ``ErrorBodyDecoder`` (the completion does this on the completion road).
    func decorated(_ error: RequestError) -> RequestError {
        (request.errorBodyDecoder ?? session.errorBodyDecoder)?.decorate(error) ?? error
    }

    /// A handle whose cancellation reports ``RequestError/cancelled(context:)`` through this
    /// pipeline's delivery.
    func makeHandle() -> RequestHandle {
        RequestHandle(onCancelAt: { [self] url in
            delivery.async { [self] in
                completion(.failure(.cancelled(context: request.initialContext.with(url: url))))
            }
        })
    }

    /// Runs the request; does nothing when `handle` was already cancelled.
    func start(_ handle: RequestHandle) {
        guard !handle.isFinished else { return }
        let urlRequest: URLRequest
        let policy: RetryPolicy?
        do {
            urlRequest = try prepare()
            policy = try attemptPolicy()
        } catch {
            fail(error, handle: handle)
            return
        }
        if let policy {
            let task = Task { await self.runAttempts(first: urlRequest, policy: policy, handle: handle) }
            handle.attach(TaskCancellation(task: task), stage: .adapt, url: urlRequest.url)
        } else if session.interceptors.isEmpty {
            send(urlRequest, handle: handle)
        } else {
            let task = Task { await self.adaptAndSend(urlRequest, handle: handle) }
            handle.attach(TaskCancellation(task: task), stage: .adapt, url: urlRequest.url)
        }
    }

    /// Encodes the request, adds the default headers and query items, applies the options and runs the
    /// request's own `intercept(urlRequest:)`.
    func prepare() throws(RequestError) -> URLRequest {
        var built: URLRequest
        do {
            built = try request.encodedURLRequest()
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
            throw .buildFailed(error, context: request.initialContext)
        }
        let intercepted: URLRequest
        do {
            intercepted = try request.intercept(urlRequest: built)
        } catch {
            throw .requestInterceptorFailed(error, context: request.initialContext.with(url: built.url))
        }
        try checkFraming(intercepted, source: .requestIntercept)
        return intercepted
    }

    /// Fails when `urlRequest` has a header that frames the message, which only the transport
    /// sets: the stage that ran last (`source`) added it, as every earlier one was checked.
    func checkFraming(_ urlRequest: URLRequest, source: @autoclosure () -> HeaderSource) throws(RequestError) {
        guard let name = urlRequest.firstFramingHeader() else { return }
        throw .buildFailed(
            .framingHeader(name, source: source()), context: request.initialContext.with(url: urlRequest.url))
    }

    /// Runs the session's `adapt` hooks in list order, then sends.
    func adaptAndSend(_ urlRequest: URLRequest, handle: RequestHandle) async {
        var adapted = urlRequest
        for interceptor in session.interceptors {
            guard !handle.isFinished else { return }
            do {
                adapted = try await interceptor.adapt(adapted, for: request.initialContext.with(url: adapted.url))
            } catch {
                fail(
                    .requestInterceptorFailed(error, context: request.initialContext.with(url: adapted.url)),
                    handle: handle)
                return
            }
            do {
                try checkFraming(adapted, source: .interceptor(String(describing: type(of: interceptor))))
            } catch {
                fail(error, handle: handle)
                return
            }
        }
        send(adapted, handle: handle)
    }

    /// Hands the request to the transport, unless the request was cancelled meanwhile.
    func send(_ urlRequest: URLRequest, handle: RequestHandle) {
        let url = urlRequest.url
        // the transport may already be answering, and a cancellation arriving, before `attach`;
        // one lock for both the check and the URL
        guard handle.note(url: url) else { return }
        let task = startTransfer(urlRequest, handle: handle) { [self] result in
            // Where the transport called back (for `URLSession`, its delegate queue), unless
            // a completion queue is set: no closure is made for the common case.
            if let queue = delivery.queue {
                queue.async { [self] in
                    received(result, url: url, handle: handle)
                }
            } else {
                received(result, url: url, handle: handle)
            }
        }
        handle.attach(task, stage: .transport, url: url)
    }

    /// Hands `urlRequest` to the transport, logged and with the caller's progress closure
    /// when there are any, and bounded by the ``RequestOptions/resourceTimeout`` when one is
    /// set: one send, or one attempt of several.
    func startTransfer(
        _ urlRequest: URLRequest,
        handle: RequestHandle,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let logged = session.logger?.begin(
            urlRequest, requestType: request.initialContext.requestType, time: session.time)
        // `prepare()` has checked that the resource timeout is positive and finite.
        let deadline = options.resourceTimeout.map { TransferDeadline(seconds: $0, time: session.time) }
        let transportCompletion: @Sendable (Result<TransportResponse, any Error>) -> Void = { result in
            if let deadline, !deadline.claim() { return }
            logged?.end(result)
            completion(result)
        }
        // a transfer still reports while its cancellation is delivered: not to the caller
        let reporting = progress.map { progress in { @Sendable step in if !handle.isFinished { progress(step) } } }
        let task = session.transport.send(urlRequest, progress: reporting, completion: transportCompletion)
        guard let deadline else { return task }
        deadline.arm(cancelling: task) {
            let timedOut: Result<TransportResponse, any Error> = .failure(TransferDeadline.timedOut)
            logged?.end(timedOut)
            completion(timedOut)
        }
        return deadline
    }

    /// Runs the session's `inspect` hooks in reverse order, when there are any and a response
    /// arrived, then finishes.
    func received(_ result: Result<TransportResponse, any Error>, url: URL?, handle: RequestHandle) {
        guard !session.interceptors.isEmpty, case .success(let response) = result else {
            finish(result, url: url, handle: handle)
            return
        }
        let task = Task {
            for interceptor in session.interceptors.reversed() {
                guard !handle.isFinished else { return }
                do {
                    try await interceptor.inspect(
                        response.urlResponse,
                        data: response.data,
                        for: request.initialContext.with(url: url)
                    )
                } catch {
                    let failure = R.responseValidationError(
                        error,
                        body: response.data,
                        response: response.urlResponse,
                        context: request.initialContext.with(url: url)
                    )
                    fail(failure, handle: handle)
                    return
                }
            }
            delivery.async { [self] in
                finish(result, url: url, handle: handle)
            }
        }
        handle.attach(TaskCancellation(task: task), stage: .inspect)
    }

    /// Claims the outcome and runs the request's response stages and the completion.
    func finish(_ result: Result<TransportResponse, any Error>, url: URL?, handle: RequestHandle) {
        guard handle.claimCompletion() else { return }
        completion(request.outcome(result, context: request.initialContext.with(url: url)))
    }

    /// Claims the outcome and delivers `error`, never on the current thread.
    func fail(_ error: RequestError, handle: RequestHandle) {
        guard handle.claimCompletion() else { return }
        delivery.async { [self] in
            completion(.failure(error))
        }
    }
}
