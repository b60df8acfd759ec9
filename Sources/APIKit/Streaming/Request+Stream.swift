extension Session {
    /// The body of `request`'s response, read while it arrives, as a ``ResponseStream``.
    ///
    /// Nothing is sent until the stream is iterated; each iteration sends the request once,
    /// prepared as ``response(for:options:)`` prepares it (the request's parser is not used).
    /// See ``ResponseStream`` for the status check, cancellation, the buffer and the errors.
    ///
    /// ```swift
    /// for try await event in session.stream(for: EventsRequest()).serverSentEvents {
    ///     print(event.data)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - options: Options for this call only; they win over the request type's
    ///     ``Request/options`` and the session's ``options``, member by member.
    ///   - maximumBufferSize: The most bytes of chunks kept waiting for a slow consumer before
    ///     the stream fails with ``ResponseStreamError/bufferLimitExceeded(limit:)``;
    ///     ``ResponseStream/defaultMaximumBufferSize`` (8 MiB) by default.
    /// - Returns: The stream.
    public func stream<R: Request>(
        for request: R,
        options: RequestOptions? = nil,
        maximumBufferSize: Int = ResponseStream.defaultMaximumBufferSize
    ) -> ResponseStream {
        let pipeline = RequestPipeline(request: request, session: self, options: options) { _ in }
        return ResponseStream(source: pipeline.streamSource(maximumBufferSize: maximumBufferSize))
    }
}

extension Request {
    /// The body of this request's response, read while it arrives, through `session`; see
    /// ``Session/stream(for:options:maximumBufferSize:)``.
    ///
    /// ```swift
    /// for try await line in LogRequest().stream(using: api).lines { print(line) }
    /// ```
    ///
    /// - Parameters:
    ///   - session: The session that sends the request; ``Session/shared`` by default.
    ///   - options: Options for this call only.
    /// - Returns: The stream.
    public func stream(using session: Session = .shared, options: RequestOptions? = nil) -> ResponseStream {
        session.stream(for: self, options: options)
    }

    /// The body of this request's response, read while it arrives, through `session`: the
    /// earlier spelling of ``stream(using:options:)``.
    ///
    /// `session:` names a `URLSession` in ``perform(session:completionQueue:completion:)``;
    /// a ``Session`` is passed with `using:`.
    ///
    /// - Parameters:
    ///   - session: The session that sends the request.
    ///   - options: Options for this call only.
    /// - Returns: The stream.
    @available(*, deprecated, renamed: "stream(using:options:)")
    public func stream(session: Session, options: RequestOptions? = nil) -> ResponseStream {
        stream(using: session, options: options)
    }
}
