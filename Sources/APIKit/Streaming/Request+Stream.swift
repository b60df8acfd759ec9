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
    ///     8 MiB by default.
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
