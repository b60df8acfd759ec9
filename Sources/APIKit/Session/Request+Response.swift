extension Request {
    /// Builds, sends and parses the request through `session`, and returns its response.
    ///
    /// The stages run in the order ``Session`` lists: the configuration is encoded, the
    /// session's defaults and the options are added, ``intercept(urlRequest:)`` may change the
    /// `URLRequest`, the session's chain (retry policy, credential store, interceptors) hands it
    /// to the transport (again, as the retry policy allows), ``intercept(urlResponse:)`` checks
    /// the response, the ``parser`` reads the body and ``response(from:urlResponse:)`` produces
    /// the ``Response``.
    ///
    /// Cancelling the calling `Task` cancels the request: one not yet sent is never sent, a
    /// transfer in flight is stopped, and the call throws ``RequestError/cancelled(context:)``
    /// — unless the response was already being processed, whose outcome is returned instead.
    /// The call returns exactly once either way.
    ///
    /// ```swift
    /// let push = try await SetPushRequest(accessToken: token, pushReplyMe: true).response()
    ///
    /// let api = Session(defaultHeaders: ["User-Agent": "MyApp/1.0"], retryPolicy: RetryPolicy())
    /// let user = try await UserRequest(id: 1).response(using: api, options: RequestOptions(timeout: 5))
    /// ```
    ///
    /// `progress` is called as the transfer runs by ``URLSessionTransport`` — the transport of
    /// `Session()` — and by other transports that observe their
    /// transfers; one that cannot (``StubTransport``) reports the totals in two steps once the
    /// transfer has ended. It is called in order, every step before the call returns, and no
    /// step starts once the outcome is decided. A multipart upload from disk reports as its
    /// stream is read.
    ///
    /// - Parameters:
    ///   - session: The session that performs the request; `Session()` by default
    ///     (``URLSessionTransport/shared``, nothing else set).
    ///   - options: Options for this call only; they win over the request type's ``options``
    ///     and the session's, member by member.
    ///   - progress: Receives the bytes sent and received so far, each time they change;
    ///     `nil` (the default) for none.
    /// - Returns: The ``Response``.
    /// - Throws: A ``RequestError`` naming the stage that failed, or
    ///   ``RequestError/cancelled(context:)``.
    public func response(
        using session: Session = Session(),
        options: RequestOptions? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(RequestError) -> Response {
        try await session.response(for: self, options: options, progress: progress)
    }
}
