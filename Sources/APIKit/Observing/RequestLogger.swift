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
/// The logger reads each call's events (``CallEvent``), before the session's
/// ``Session/onCallEvent`` observer: it logs the request exactly as the transport gets it
/// (``CallEvent/Stage/requestSent(_:)``: after default headers, options,
/// ``Request/intercept(urlRequest:)`` and every ``Interceptor``), and the response when its body
/// has been received — with its head for a body read whole, when a stream's or a download's
/// body ends — before the interceptors, the status check and the parser see it. Every attempt
/// is logged: a response given up for a retry before its body was read (a stream's or a
/// download's) has no ``LoggedResponse/bodySize``. A transport failure (including the
/// `URLError(.cancelled)` after a cancellation) is logged as a response with
/// ``LoggedResponse/error``. A request that fails before it is sent (a build error), or that
/// an interceptor answers without calling `next` (a cache), is not logged.
///
/// By default no header value (but a few harmless ones such as `Content-Type`), query value,
/// cookie, token or body byte appears in any event; see ``LogPrivacy`` to opt in.
///
/// `log` may be called on any thread, one event of a call at a time: the request event where
/// the request is handed to the transport, just before it is sent, and the response event
/// usually where the transport calls back, before the response is processed: keep it quick.
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

    /// `urlRequest` as this logger shows it, numbered.
    func logged(_ urlRequest: URLRequest, requestType: String) -> LoggedRequest {
        let id = Self.counter.withLock { counter in
            counter += 1
            return counter
        }
        return LoggedRequest(id: id, urlRequest: urlRequest, requestType: requestType, privacy: privacy)
    }
}
