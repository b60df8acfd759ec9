extension Request {
    /// Builds, sends and parses the request, and returns its response.
    ///
    /// ```swift
    /// let response = try await SetPushRequest(accessToken: token, pushReplyMe: true).response()
    /// ```
    ///
    /// The same pipeline as ``perform(session:completionQueue:completion:)``, through
    /// `session`. Cancelling the calling `Task` cancels the request: one not yet sent is never
    /// sent, a transfer in flight is stopped, and the call throws
    /// ``RequestError/cancelled(context:)`` — unless the response was already being
    /// processed, whose outcome is returned instead.
    ///
    /// - Parameters:
    ///   - session: The session that performs the request; ``Session/shared`` by default.
    ///   - options: Options for this call only; they win over the request type's ``options``
    ///     and the session's, member by member.
    /// - Returns: The ``Response``.
    /// - Throws: A ``RequestError`` naming the stage that failed, or
    ///   ``RequestError/cancelled(context:)``.
    public func response(using session: Session = .shared, options: RequestOptions? = nil) async throws(RequestError)
        -> Response
    {
        try await session.response(for: self, options: options)
    }

    /// Builds, sends and parses the request through `session`: the earlier spelling of
    /// ``response(using:options:)``.
    ///
    /// `session:` names a `URLSession` in ``perform(session:completionQueue:completion:)``;
    /// a ``Session`` is passed with `using:`.
    ///
    /// - Parameters:
    ///   - session: The session that performs the request.
    ///   - options: Options for this call only.
    /// - Returns: The ``Response``.
    /// - Throws: What ``response(using:options:)`` throws.
    @available(*, deprecated, renamed: "response(using:options:)")
    public func response(session: Session, options: RequestOptions? = nil) async throws(RequestError) -> Response {
        try await response(using: session, options: options)
    }
}
