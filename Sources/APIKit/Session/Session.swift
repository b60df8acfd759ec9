/// Performs requests: the transport that sends them, where results are delivered, default
/// headers, query items and options, and session-wide ``Interceptor``s.
///
/// A `Session` is a value: copies share the transport, and changing a copy's properties
/// changes only that copy. Every session made without a transport sends through
/// ``URLSessionTransport/shared``, which reports progress, streams and downloads; `Session()`
/// is what ``Request/response(using:options:progress:)`` uses when given none.
///
/// ```swift
/// let api = Session(
///     defaultHeaders: ["User-Agent": "MyApp/1.0"],
///     defaultQueryItems: ["api_key": apiKey],
///     options: RequestOptions(timeout: 20),
///     interceptors: [BearerToken(tokens: store)]
/// )
/// let user = try await UserRequest(id: 1).response(using: api)
/// UserRequest(id: 2).perform(using: api) { result in print(result) }
/// ```
///
/// Everything a session does is one road whatever the transport and whichever way it is called
/// (`response()`, `perform`, `stream()`, `download(to:)`): encode, default headers, query items and
/// options, the request's ``Request/intercept(urlRequest:)``, then the session's chain — the
/// retry policy, the credential store, the ``interceptors`` in list order — around the
/// transport (the ``logger`` logs what reaches the transport and what comes back), then the request's ``Request/intercept(urlResponse:)`` and the body (parsed,
/// streamed or written to a file). See ``Interceptor``.
///
/// Opt-in, a session also sends failed requests again (``retryPolicy``), refreshes a rejected
/// credential once for all requests in flight (``credentialStore``) and decodes the API's
/// error payloads (``errorBodyDecoder``):
///
/// A ``TrafficControl`` in ``interceptors`` limits the calls in flight and pauses a host that
/// answers `429` or `503` with `Retry-After`; a ``RetryBudget`` on the policy bounds retries
/// during an outage.
///
/// ```swift
/// let api = Session(
///     retryPolicy: RetryPolicy(),
///     credentialStore: CredentialStore(BearerAuthenticator(auth: client), credential: savedToken),
///     errorBodyDecoder: .json(APIFailure.self)
/// )
/// ```
public struct Session: Sendable {
    /// Sends the requests; ``URLSessionTransport/shared`` by default, a ``StubTransport`` in
    /// tests.
    public var transport: any Transport
    /// Where a completion-handler call runs once it has waited — its links, the response stages
    /// and the completion; `nil` for a global queue (concurrent: completions of several calls
    /// may run at once). Built with a compiler before Swift 6.2, or on an Apple OS before 26, the
    /// links run on Swift's cooperative pool and only the response stages and the completion here.
    public var completionQueue: DispatchQueue?
    /// Headers added to every request that does not declare a header of the same name
    /// (compared case-insensitively), before ``Request/intercept(urlRequest:)`` runs.
    /// An invalid name or value, or two names that differ only in case, fail each request with
    /// a ``BuildError`` naming `Session.defaultHeaders`.
    public var defaultHeaders: [String: String]
    /// Query items added to every request whose URL does not already have an item of the same
    /// name, such as the API key that every call of some web APIs carries.
    ///
    /// A name the request declares (with ``Query``, ``QueryDict``, ``KeyQuery`` or in its
    /// `base`) wins, compared exactly: query names are case-sensitive. A declared item whose
    /// value is `nil` is not sent, so the default is. The items follow the request's own, sorted
    /// by key like ``QueryDict``'s, and are percent-encoded exactly like ``Query`` values (a
    /// space is `%20`, `+` is `%2B`), before ``Request/intercept(urlRequest:)`` and the
    /// interceptors run, which see them. Like every query value they are written as `***` in
    /// ``RequestContext``, errors and logs. An empty key fails each request with
    /// ``BuildError/emptyQueryKey(field:)`` naming `Session.defaultQueryItems`.
    ///
    /// ```swift
    /// let giphy = Session(defaultQueryItems: ["api_key": "dc6zaTOxFJmzC"])
    /// // GET https://api.giphy.com/v1/gifs/search?q=cats&api_key=dc6zaTOxFJmzC
    /// let gifs = try await SearchGIFs(query: "cats").response(using: giphy)
    /// ```
    public var defaultQueryItems: [String: String]
    /// Options for every request; those of the request type and of the call win, member by member.
    public var options: RequestOptions
    /// Adapt every request in list order, and inspect every response in reverse order.
    public var interceptors: [any Interceptor]
    /// When failed requests are sent again; ``RetryPolicy/never`` (never) by default. A request
    /// type's ``Request/retryPolicy`` wins.
    public var retryPolicy: RetryPolicy
    /// The credential put on every request and refreshed, once for all requests in flight, when
    /// a response rejects it, by the session's ``Authenticator``; `nil` (none) by default.
    public var credentialStore: CredentialStore?
    /// Reads the API's error payload from the body of rejected responses, into
    /// ``RequestError/errorBody``; `nil` by default. A request type's
    /// ``Request/errorBodyDecoder`` wins.
    public var errorBodyDecoder: ErrorBodyDecoder?
    /// Writes a line of text, redacted, for every request sent (with its `curl` command) and for
    /// every response; `nil` (the default) logs nothing and costs nothing. For the same facts as
    /// values, observe ``onCallEvent``. See ``RequestLogger``.
    public var logger: RequestLogger?
    /// Receives the events of every call, in order for each call, each call ending with its
    /// ``CallMetrics``; `nil` (the default) observes nothing and costs nothing. Called on any
    /// thread, one event of a call at a time: keep it quick. See ``CallEvent``.
    public var onCallEvent: (@Sendable (CallEvent) -> Void)?
    /// Where the session's waits and timers take their time from: the real time, unless a test
    /// drives it by hand (see ``TimeSource``).
    @_spi(Testing) public var time: any TimeSource = SystemTime()
    /// Where completions are called when ``completionQueue`` is `nil`: the delegate queue of the
    /// caller's `URLSession` for ``Request/perform(session:completionQueue:completion:)``.
    var completionOperationQueue: OperationQueue?

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - transport: Sends the requests; ``URLSessionTransport/shared`` by default, which
    ///     reports progress, streams and downloads.
    ///   - completionQueue: Where responses are processed and completions called; `nil` for a
    ///     global queue.
    ///   - defaultHeaders: Headers for every request that does not declare them.
    ///   - defaultQueryItems: Query items for every request that does not declare them.
    ///   - options: Options for every request, unless the request type or the call sets them.
    ///   - interceptors: Session-wide hooks, run in list order before sending and in reverse
    ///     order after.
    ///   - retryPolicy: When failed requests are sent again; never by default.
    ///   - credentialStore: Holds the credential applied to every request and refreshed on
    ///     rejection; `nil` (none) by default.
    ///   - errorBodyDecoder: Reads the error payload of rejected responses.
    ///   - logger: Writes a line of text, redacted, for every request as sent and every response;
    ///     `nil` logs nothing.
    ///   - onCallEvent: Receives the events of every call (``CallEvent``); `nil` observes nothing.
    ///
    /// ```swift
    /// let session = Session(defaultHeaders: ["User-Agent": "MyApp/1.0"], retryPolicy: RetryPolicy(), logger: .print)
    /// ```
    public init(
        transport: any Transport = URLSessionTransport.shared,
        completionQueue: DispatchQueue? = nil,
        defaultHeaders: [String: String] = [:],
        defaultQueryItems: [String: String] = [:],
        options: RequestOptions = RequestOptions(),
        interceptors: [any Interceptor] = [],
        retryPolicy: RetryPolicy = .never,
        credentialStore: CredentialStore? = nil,
        errorBodyDecoder: ErrorBodyDecoder? = nil,
        logger: RequestLogger? = nil,
        onCallEvent: (@Sendable (CallEvent) -> Void)? = nil
    ) {
        self.transport = transport
        self.completionQueue = completionQueue
        self.defaultHeaders = defaultHeaders
        self.defaultQueryItems = defaultQueryItems
        self.options = options
        self.interceptors = interceptors
        self.retryPolicy = retryPolicy
        self.credentialStore = credentialStore
        self.errorBodyDecoder = errorBodyDecoder
        self.logger = logger
        self.onCallEvent = onCallEvent
    }

    /// The field name that errors about ``defaultHeaders`` carry.
    static let defaultHeadersField = "Session.defaultHeaders"

    /// Adds the default headers that `urlRequest` does not declare, checked by the rules of
    /// declared headers (``HeaderRules``).
    func addDefaultHeaders(to urlRequest: inout URLRequest) throws(BuildError) {
        let field = Self.defaultHeadersField
        let names = defaultHeaders.keys.sorted()
        try HeaderRules.check(
            count: names.count,
            name: { names[$0] },
            value: { defaultHeaders[names[$0]] ?? "" },
            field: { _ in field },
            source: .sessionDefaultHeaders
        )
        let declared = urlRequest.allHTTPHeaderFields ?? [:]
        for name in names where !declared.keys.contains(where: { HTTPSyntax.namesEqual($0, name) }) {
            urlRequest.setValue(defaultHeaders[name], forHTTPHeaderField: name)
        }
    }

    /// The field name that errors about ``defaultQueryItems`` carry.
    static let defaultQueryItemsField = "Session.defaultQueryItems"

    /// Appends the default query items whose names `urlRequest`'s URL does not have, written
    /// by the writer of ``Query`` values.
    func addDefaultQueryItems(to urlRequest: inout URLRequest) throws(BuildError) {
        let field = Self.defaultQueryItemsField
        let names = defaultQueryItems.keys.sorted()
        if names.first == "" { throw .emptyQueryKey(field: field) }
        guard let url = urlRequest.url else { return }
        let appended = try URLComposer.url(url) { (existing, text: inout [UInt8]) throws(BuildError) in
            // The writer takes the text over and gives it back: no copy.
            var writer = FormWriter(style: .query)
            swap(&writer.output, &text)
            defer { swap(&writer.output, &text) }
            for name in names where !existing.contains(name) {
                let value = DeclaredValue.string(defaultQueryItems[name] ?? "")
                try writer.append(value, key: name, strategy: .inherit, request: .inherit, field: field)
            }
        }
        guard let appended else { throw .invalidURL(base: url.absoluteString, path: "") }
        urlRequest.url = appended
    }
}
