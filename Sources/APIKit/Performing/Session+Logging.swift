extension Session {
    /// Creates a session that logs every request and response with `logger`.
    ///
    /// ```swift
    /// let session = Session(logger: .print)
    /// let session = Session(defaultHeaders: ["User-Agent": "MyApp/1.0"], logger: RequestLogger { event in
    ///     log.debug("\(event)")
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - transport: Sends the requests; `URLSession.shared` by default.
    ///   - completionQueue: Where responses are processed and completions called; `nil` for
    ///     where the transport calls back.
    ///   - defaultHeaders: Headers for every request that does not declare them.
    ///   - options: Options for every request, unless the request type or the call sets them.
    ///   - interceptors: Session-wide hooks, run in list order before sending and in reverse
    ///     order after.
    ///   - logger: Receives every request as sent and every response, redacted.
    public init(
        transport: any Transport = URLSession.shared,
        completionQueue: DispatchQueue? = nil,
        defaultHeaders: [String: String] = [:],
        options: RequestOptions = RequestOptions(),
        interceptors: [any Interceptor] = [],
        logger: RequestLogger?
    ) {
        self.init(
            transport: transport,
            completionQueue: completionQueue,
            defaultHeaders: defaultHeaders,
            options: options,
            interceptors: interceptors
        )
        self.logger = logger
    }
}
