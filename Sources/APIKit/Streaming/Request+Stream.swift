extension Request {
    /// The body of this request's response, read while it arrives, as a ``ResponseStream``.
    ///
    /// Nothing is sent until the stream is iterated; each iteration sends the request once
    /// through `session`, prepared as ``response(using:options:progress:)`` prepares it (the
    /// request's ``parser`` is not used). See ``DecodedResponseStream`` for the status check,
    /// cancellation, the buffer and the errors.
    ///
    /// ```swift
    /// for try await event in EventsRequest().stream(using: api).serverSentEvents {
    ///     print(event.data)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - session: The session that sends the request; `Session()` by default
    ///     (``URLSessionTransport/shared``, nothing else set).
    ///   - options: Options for this call only; they win over the request type's ``options``
    ///     and the session's, member by member.
    ///   - maximumBufferSize: The most bytes of chunks kept waiting for a slow consumer before
    ///     the stream fails with ``ResponseStreamError/bufferLimitExceeded(limit:)``;
    ///     8 MiB by default. A size below 1 fails the first read with
    ///     ``BuildError/invalidBufferSize(_:)``, before anything is sent.
    /// - Returns: The stream.
    public func stream(
        using session: Session = Session(),
        options: RequestOptions? = nil,
        maximumBufferSize: Int = ResponseStream.defaultMaximumBufferSize
    ) -> ResponseStream {
        let pipeline = RequestPipeline(request: self, session: session, options: options)
        return ResponseStream(source: pipeline.streamSource(maximumBufferSize: maximumBufferSize))
    }
}

/// The pipeline's stages for a ``ResponseStream``: ``prepare()``, the session's chain around a
/// terminal stage that starts the transport's ``Transport/stream(_:onEvent:)`` and returns at
/// the response head, then the request's `intercept(urlResponse:)` on that head. The body is
/// never buffered for the chain: it is read by the caller, chunk by chunk, from the buffer.
extension RequestPipeline {
    /// This pipeline's stages, for a ``ResponseStream`` buffering up to `maximumBufferSize`.
    func streamSource(maximumBufferSize: Int) -> ResponseStreamSource {
        ResponseStreamSource(
            time: session.time,
            open: { lastEventID throws(RequestError) in
                try await self.openStream(maximumBufferSize: maximumBufferSize, lastEventID: lastEventID)
            },
            context: { url in self.initialContext.with(url: url) }
        )
    }

    /// Sends the request through the chain and checks the response head; a reconnection of
    /// server-sent events passes its `lastEventID`, sent as the `Last-Event-ID` header (an
    /// ordinary header, set before the chain sees the request).
    func openStream(maximumBufferSize: Int, lastEventID: String?) async throws(RequestError) -> OpenedStream {
        // each connection is a call of its own
        let events = CallRecorder.make(for: session, context: initialContext)
        do {
            return try await openStream(maximumBufferSize: maximumBufferSize, lastEventID: lastEventID, events: events)
        } catch {
            events?.end(Result<Void, RequestError>.failure(error))
            throw error
        }
    }

    private func openStream(
        maximumBufferSize: Int, lastEventID: String?, events: CallRecorder?
    ) async throws(RequestError) -> OpenedStream {
        guard maximumBufferSize >= 1 else {
            throw .buildFailed(BuildError.invalidBufferSize(maximumBufferSize), context: initialContext)
        }
        var urlRequest = try prepare()
        if let lastEventID {
            urlRequest.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID")
        }
        let chain = try chain(events: events, delivery: .stream) { urlRequest, attempt throws(RequestError) in
            try await self.streamTerminal(urlRequest, attempt: attempt, limit: maximumBufferSize)
        }
        let response: CallResponse
        do {
            response = try await chain.run(urlRequest)
        } catch {
            throw decorated(error)
        }
        let context = chain.outcomeContext(url: urlRequest.url)
        do {
            try await checkHead(of: response, context: context)
        } catch {
            events?.observeBody(of: response)
            throw decorated(error)
        }
        let buffer: StreamBuffer
        if let pending = response.pending, case .stream(let streamed) = pending.kind {
            pending.take()
            buffer = streamed
        } else {
            // answered by a link: the body in memory, as one chunk
            buffer = StreamBuffer(limit: Int.max)
            buffer.receive(.response(response.urlResponse))
            if let data = response.data, !data.isEmpty { buffer.receive(.data(data)) }
            buffer.receive(.finished)
        }
        events?.observeStreamBody(of: response, context: context)
        return OpenedStream(response: response.urlResponse, context: context, buffer: buffer)
    }

    /// The terminal stage of a stream: starts the transfer into a new buffer and waits for the
    /// response head.
    private func streamTerminal(
        _ urlRequest: URLRequest, attempt: Int, limit: Int
    ) async throws(RequestError) -> CallResponse {
        let tap = BodyTap()
        let buffer = StreamBuffer(limit: limit, tap: tap)
        let pending = PendingBody(.stream(buffer), tap: tap)
        buffer.attach(
            session.transport.stream(urlRequest) { event in
                tap.observe(event)
                buffer.receive(event)
            })
        let context = { self.initialContext.with(url: urlRequest.url).with(attempts: attempt) }
        while true {
            switch await buffer.next() {
            case .response(let head):
                return CallResponse(urlResponse: head, pending: pending)
            case .data, .end:
                // the end before a response head: a transport breaking the order (a chunk before
                // it already failed the buffer; `.data` cannot come first)
                throw .transportFailed(URLError(.badServerResponse), context: context())
            case .failure(let error):
                throw .transportFailed(error, context: context())
            case .cancelled:
                throw .cancelled(context: context())
            }
        }
    }
}
