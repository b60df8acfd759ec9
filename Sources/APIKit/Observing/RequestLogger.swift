/// An opt-in hook that receives a line of text for every request a ``Session`` sends — with
/// the request as a `curl` command — and for every response, with status, timing and size;
/// redacted by a ``LogPrivacy``.
///
/// Set it on the session; without one (the default) the pipeline does no logging work at all.
///
/// ```swift
/// let session = Session(logger: .print)
/// // → #1 GET https://api.example.com/v1/users?page=*** (UsersRequest)
/// // curl 'https://api.example.com/v1/users?page=***' -H 'Accept: application/json' -H 'Authorization: ***'
/// // ← #1 200 GET https://api.example.com/v1/users?page=*** (UsersRequest) 0.084 s, 5120 bytes
///
/// let quiet = Session(logger: RequestLogger(privacy: LogPrivacy(sensitiveHeaders: ["X-Api-Key"])) { line in
///     os_log("%{public}@", line)
/// })
/// ```
///
/// The logger writes text for people to read. Code that needs the facts as values — the
/// `URLRequest` sent, the response head, the byte counts, the timings — observes the same
/// call through ``Session/onCallEvent`` (``CallEvent``).
///
/// The closure is called once for each request and once for what came back for it:
/// - a request: `→ #id METHOD url (RequestType)`, a newline, and its `curl` command
///   (headers sorted by name; the body as a placeholder with its size unless the privacy
///   reveals bodies);
/// - a response: `← #id 200 METHOD url (RequestType) 0.084 s, 5120 bytes` — the status, the
///   time since the request was handed to the transport, the body's size, or `body not read`
///   for a response given up before its body was read (a stream's or a download's, for a
///   retry or a credential replay); `-` for the status of a response that is not HTTP;
/// - a transport failure: `← #id failed METHOD url (RequestType) 0.084 s: URLError -1001`, the
///   error named by its type and code, never its message.
///
/// The numbers pair a response with its request; they count the requests this process logs.
///
/// The logger reads each call's events (``CallEvent``), before the session's
/// ``Session/onCallEvent`` observer: it logs the request exactly as the transport gets it
/// (``CallEvent/Stage/requestSent(_:)``: after default headers, options,
/// ``Request/intercept(urlRequest:)`` and every ``Interceptor``), and the response when its body
/// has been received — with its head for a body read whole, when a stream's or a download's
/// body ends — before the interceptors, the status check and the parser see it. Every attempt
/// is logged. A transport failure (including the `URLError(.cancelled)` after a cancellation)
/// is logged as a failed response. A request that fails before it is sent (a build error), or
/// that an interceptor answers without calling `next` (a cache), is not logged.
///
/// By default no header value (but a few harmless ones such as `Content-Type`), query value,
/// cookie, token or body byte appears in any line, and no response header or response body
/// byte ever does; see ``LogPrivacy`` to opt in.
///
/// The closure may be called on any thread, one line of a call at a time: the request's where the
/// request is handed to the transport, just before it is sent, and the response's where the
/// call continues once the response arrived, before it is processed: keep it quick.
public struct RequestLogger: Sendable {
    /// What the lines may show.
    let privacy: LogPrivacy
    /// Receives the text of each request and of each response.
    let log: @Sendable (String) -> Void

    /// Creates a logger that passes the text of each request and each response to `log`.
    ///
    /// ```swift
    /// let logger = RequestLogger(privacy: LogPrivacy(revealsQueryValues: true)) { line in
    ///     print(line)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - privacy: What the lines may show; nothing secret by default.
    ///   - log: Receives the text of each request and of each response, on any thread (see
    ///     above); a request's is its line and its `curl` command, joined by `"\n"`.
    public init(privacy: LogPrivacy = LogPrivacy(), _ log: @escaping @Sendable (String) -> Void) {
        self.privacy = privacy
        self.log = log
    }

    /// Prints what it is given with `print`: a request's line and its `curl` command, and a
    /// response's line.
    public static let print = RequestLogger { line in Swift.print(line) }

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
