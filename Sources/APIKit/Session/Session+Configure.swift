extension Session {
    /// Creates a session with the default settings, then lets `configure` change the ones it
    /// needs, in any order.
    ///
    /// ``init(transport:completionQueue:defaultHeaders:defaultQueryItems:options:interceptors:retryPolicy:credentialStore:errorBodyDecoder:logger:)``
    /// takes its arguments in a fixed order; with a closure each setting is one line, in the
    /// order that reads best, and can depend on a condition:
    ///
    /// ```swift
    /// let api = Session { session in
    ///     session.logger = .print
    ///     session.defaultHeaders["User-Agent"] = "MyApp/1.0"
    ///     session.retryPolicy = .default
    ///     if let token { session.defaultHeaders["Authorization"] = "Bearer \(token)" }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - transport: Sends the requests; ``URLSessionTransport/shared`` by default.
    ///   - configure: Changes the settings of a session made with every other default.
    /// - Throws: What `configure` throws; nothing otherwise.
    public init(transport: any Transport = URLSessionTransport.shared, _ configure: (inout Session) throws -> Void)
        rethrows
    {
        self.init(transport: transport)
        try configure(&self)
    }

    /// A copy of this session with the settings `configure` changes; this session is left as it
    /// is.
    ///
    /// Sessions are values: a variant for some calls shares the transport (and its connections)
    /// and everything `configure` does not change.
    ///
    /// ```swift
    /// let uploads = api.with { $0.options = RequestOptions(timeout: 300) }
    /// ```
    ///
    /// - Parameter configure: Changes the copy's settings.
    /// - Returns: The changed copy.
    /// - Throws: What `configure` throws; nothing otherwise.
    public func with(_ configure: (inout Session) throws -> Void) rethrows -> Session {
        var copy = self
        try configure(&copy)
        return copy
    }
}
