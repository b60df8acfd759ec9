extension Request {
    /// Builds, sends and parses the request through `session`, reports the transfer's
    /// progress, and returns its response.
    ///
    /// This is ``Session/response(for:options:progress:)``: `Session()` and ``Session/shared``
    /// report as the transfer runs (``URLSessionTransport/shared``).
    ///
    /// ```swift
    /// let uploads = Session()
    /// let echo = try await UploadRequest(file: file).response(using: uploads, progress: { progress in
    ///     print(progress.bytesSent)
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - session: The session that performs the request.
    ///   - options: Options for this call only.
    ///   - progress: Receives the bytes sent and received so far, each time they change.
    /// - Returns: The ``Response``.
    /// - Throws: A ``RequestError`` naming the stage that failed, or
    ///   ``RequestError/cancelled(context:)``.
    public func response(
        using session: Session,
        options: RequestOptions? = nil,
        progress: @escaping ProgressHandler
    ) async throws(RequestError) -> Response {
        try await session.response(for: self, options: options, progress: progress)
    }

    /// Builds, sends and parses the request through `session` and reports its progress: the
    /// earlier spelling of ``response(using:options:progress:)``.
    ///
    /// `session:` names a `URLSession` in ``perform(session:completionQueue:completion:)``;
    /// a ``Session`` is passed with `using:`.
    ///
    /// - Parameters:
    ///   - session: The session that performs the request.
    ///   - options: Options for this call only.
    ///   - progress: Receives the bytes sent and received so far, each time they change.
    /// - Returns: The ``Response``.
    /// - Throws: What ``response(using:options:progress:)`` throws.
    @available(*, deprecated, renamed: "response(using:options:progress:)")
    public func response(
        session: Session,
        options: RequestOptions? = nil,
        progress: @escaping ProgressHandler
    ) async throws(RequestError) -> Response {
        try await response(using: session, options: options, progress: progress)
    }
}
