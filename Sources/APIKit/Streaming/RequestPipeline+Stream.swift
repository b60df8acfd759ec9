/// The pipeline's stages for a ``ResponseStream``: the same preparation as a request sent
/// once (``prepare()``, the credential, the interceptors' `adapt`), then the transport's
/// ``Transport/stream(_:onEvent:)``, and the checks of the response head before the first
/// element. No retry, no replay after a credential refresh: the body is the caller's as soon
/// as it arrives.
extension RequestPipeline {
    /// The most bytes of a rejected response's body read for its ``RequestError``: 1 MiB.
    static var maximumErrorBodySize: Int { 1 << 20 }

    /// This pipeline's stages, for a ``ResponseStream`` buffering up to `maximumBufferSize`.
    func streamSource(maximumBufferSize: Int) -> ResponseStreamSource {
        ResponseStreamSource(
            maximumBufferSize: maximumBufferSize,
            time: session.time,
            start: { buffer, lastEventID throws(RequestError) in
                try await self.startStream(into: buffer, lastEventID: lastEventID)
            },
            check: { response, buffer, context throws(RequestError) in
                try await self.checkStreamHead(response, buffer: buffer, context: context)
            },
            context: { url in self.request.initialContext.with(url: url) }
        )
    }

    /// Prepares the request, authorizes and adapts it, and starts the transfer into `buffer`.
    /// A reconnection of server-sent events passes its `lastEventID`, sent as the
    /// `Last-Event-ID` header (an ordinary header, set before the interceptors see the request).
    func startStream(into buffer: StreamBuffer, lastEventID: String? = nil) async throws(RequestError) -> RequestContext
    {
        var urlRequest = try prepare()
        if let lastEventID {
            urlRequest.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID")
        }
        if let credentials = session.credentialStore?.storage {
            do {
                (urlRequest, _) = try await credentials.authorize(urlRequest)
            } catch {
                throw .requestInterceptorFailed(error, context: request.initialContext.with(url: urlRequest.url))
            }
            try checkFraming(urlRequest, source: .authenticator(credentials.authenticatorName))
        }
        if !session.interceptors.isEmpty {
            urlRequest = try await adapted(urlRequest, attempt: 1, handle: makeHandle())
        }
        let context = request.initialContext.with(url: urlRequest.url)
        guard !Task.isCancelled else { throw .cancelled(context: context) }
        buffer.attach(startLoggedStream(urlRequest, onEvent: buffer.receive))
        return context
    }

    /// Hands `urlRequest` to the transport's stream, logged through the session's logger when
    /// it has one: the one start of streamed transfers and downloads.
    func startLoggedStream(
        _ urlRequest: URLRequest,
        onEvent receive: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> any TransportTask {
        guard
            let logged = session.logger?.begin(
                urlRequest, requestType: request.initialContext.requestType, time: session.time)
        else {
            return session.transport.stream(urlRequest, onEvent: receive)
        }
        let log = StreamLog(logged)
        return session.transport.stream(urlRequest) { event in
            log.observe(event)
            receive(event)
        }
    }

    /// Runs the request's `intercept(urlResponse:)` (by default the status check) and the
    /// session's `inspect` hooks on the response head; a rejected response's body (its first
    /// ``maximumErrorBodySize`` bytes) is read first, for the error and the hooks.
    func checkStreamHead(
        _ response: URLResponse,
        buffer: StreamBuffer,
        context: RequestContext
    ) async throws(RequestError) {
        var rejection: (any Error)?
        do {
            try request.intercept(urlResponse: response)
        } catch {
            rejection = error
        }
        var body = Data()
        if rejection != nil {
            body = await errorBody(from: buffer)
            guard !Task.isCancelled else { throw .cancelled(context: context) }
        }
        for interceptor in session.interceptors.reversed() {
            do {
                try await interceptor.inspect(response, data: body, for: context)
            } catch {
                throw decorated(R.responseValidationError(error, body: body, response: response, context: context))
            }
        }
        if let rejection {
            throw decorated(R.responseValidationError(rejection, body: body, response: response, context: context))
        }
    }

    /// The body of a rejected response, up to ``maximumErrorBodySize`` bytes; the transfer is
    /// cancelled when there is more. Whatever arrived when the transfer fails.
    private func errorBody(from buffer: StreamBuffer) async -> Data {
        var body = Data()
        while true {
            switch await buffer.next() {
            case .data(let chunk):
                let room = Self.maximumErrorBodySize - body.count
                body.append(chunk.prefix(room))
                if chunk.count > room {
                    buffer.cancel()
                    return body
                }
            case .response:
                continue
            case .end, .failure, .cancelled:
                return body
            }
        }
    }
}

/// Logs a streamed transfer as the session's ``RequestLogger`` logs any other: the request when
/// it is sent, the response when the body ends, with the bytes counted as they passed (none
/// kept), or the error. A transfer cancelled by the consumer logs `URLError(.cancelled)`, as a
/// cancelled request does.
final class StreamLog: Sendable {
    private let logged: LoggedTransfer
    private let state = Locked<(response: URLResponse?, bytes: Int)>((nil, 0))

    init(_ logged: LoggedTransfer) {
        self.logged = logged
    }

    /// Takes note of one event; logs the end. The transport calls this once per event, in order.
    func observe(_ event: TransportStreamEvent) {
        switch event {
        case .response(let response):
            state.withLock { $0.response = response }
        case .data(let chunk):
            state.withLock { $0.bytes += chunk.count }
        case .finished:
            let (response, bytes) = state.withLock { ($0.response, $0.bytes) }
            if let response {
                logged.end(streamed: response, bodySize: bytes)
            } else {
                logged.end(.failure(URLError(.badServerResponse)))
            }
        case .failed(let error):
            logged.end(.failure(error))
        }
    }
}
