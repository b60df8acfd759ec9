/// An opt-in hook that receives every request a ``Session`` sends, as a `curl` command, and
/// every response, with status, timing and size — redacted by a ``LogPrivacy``.
///
/// Set it on the session; without one (the default) the pipeline does no logging work at all.
///
/// ```swift
/// let session = Session(logger: .print)
/// // → #1 GET https://api.example.com/v1/users?page=*** (UsersRequest)
/// // curl 'https://api.example.com/v1/users?page=***' -H 'Accept: application/json' -H 'Authorization: ***'
/// // ← #1 200 GET https://api.example.com/v1/users?page=*** (UsersRequest) 0.084 s, 5120 bytes
///
/// let quiet = Session(logger: RequestLogger(privacy: LogPrivacy(sensitiveHeaders: ["X-Api-Key"])) { event in
///     os_log("%{public}@", event.description)
/// })
/// ```
///
/// The logger sees the request exactly as the transport gets it (after default headers,
/// options, ``Request/intercept(urlRequest:)`` and every ``Interceptor``), and the response
/// where the transport calls back, before the interceptors' `inspect`, the status check and
/// the parser. A transport failure (including the `URLError(.cancelled)` after a
/// cancellation) is logged as a response with ``LoggedResponse/error``. A request that fails
/// before it is sent (a build error) is not logged.
///
/// By default no header value (but a few harmless ones such as `Content-Type`), query value,
/// cookie, token or body byte appears in any event; see ``LogPrivacy`` to opt in.
///
/// `log` may be called on any thread: the request event where the request is handed to the
/// transport, just before `send` (the caller's thread, or the task that ran the interceptors),
/// and the response event usually where the transport calls back, before the response is
/// processed: keep it quick.
public struct RequestLogger: Sendable {
    /// What the events may show.
    public var privacy: LogPrivacy
    /// Receives each event.
    public let log: @Sendable (RequestLogEvent) -> Void

    /// Creates a logger that passes each event to `log`.
    ///
    /// ```swift
    /// let logger = RequestLogger(privacy: LogPrivacy(revealsQueryValues: true)) { event in
    ///     print(event.description)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - privacy: What the events may show; nothing secret by default.
    ///   - log: Receives each event, on any thread (see above).
    public init(privacy: LogPrivacy = LogPrivacy(), _ log: @escaping @Sendable (RequestLogEvent) -> Void) {
        self.privacy = privacy
        self.log = log
    }

    /// Prints each event with `print`: the request's description and its curl command, and
    /// the response's description.
    public static let print = RequestLogger { event in
        switch event {
        case .request(let request): Swift.print("\(request)\n\(request.curlCommand)")
        case .response(let response): Swift.print(response)
        }
    }

    /// Numbers the logged requests of this process.
    private static let counter = Locked(0)

    /// Logs `urlRequest` and returns what logs its outcome, its duration measured by `time`.
    func begin(_ urlRequest: URLRequest, requestType: String, time: any TimeSource) -> LoggedTransfer {
        let id = Self.counter.withLock { counter in
            counter += 1
            return counter
        }
        let request = LoggedRequest(id: id, urlRequest: urlRequest, requestType: requestType, privacy: privacy)
        log(.request(request))
        return LoggedTransfer(logger: self, request: request, time: time, start: time.uptime)
    }
}

/// A logged request in flight: logs its outcome with the time since it was sent.
struct LoggedTransfer: Sendable {
    let logger: RequestLogger
    let request: LoggedRequest
    /// What the duration is measured by: the session's time source.
    let time: any TimeSource
    /// `time`'s uptime when the request was handed to the transport.
    let start: TimeInterval

    func end(_ result: Result<TransportResponse, any Error>) {
        let response = LoggedResponse(
            request: request,
            result: result,
            elapsed: max(0, time.uptime - start),
            privacy: logger.privacy
        )
        logger.log(.response(response))
    }

    /// Logs the end of a streamed body: its response and how many bytes it had.
    func end(streamed response: URLResponse, bodySize: Int) {
        logger.log(
            .response(
                LoggedResponse(
                    request: request, response: response, bodySize: bodySize,
                    elapsed: max(0, time.uptime - start), privacy: logger.privacy)))
    }
}
