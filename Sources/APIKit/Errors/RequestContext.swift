/// Which request an error belongs to: its type, method and URL.
///
/// The ``description`` is safe to log: query values are replaced by `***`
/// (they often carry keys and tokens), and no header is ever included.
public struct RequestContext: Sendable, Hashable, CustomStringConvertible {
    /// The name of the request type, such as `"SetPushRequest"`.
    public var requestType: String { declaration.typeName }
    /// The HTTP method.
    public let method: HTTPMethod
    /// The URL the request was sent to, or would have been sent to, once known.
    public private(set) var url: URL?
    /// How many times the request was sent: more than 1 after retries (``RetryPolicy``) or a
    /// replay after a credential refresh (``CredentialStore``); 1 otherwise, also for errors
    /// raised before anything was sent and for the ``RequestError/cancelled(context:)`` of a
    /// request other than a download (the handle that reports such a cancellation does not know
    /// how far the attempts went; a download's tells its attempt).
    public private(set) var attempts: Int
    /// The request type, and `base` and `path` as declared for errors raised before the URL
    /// exists.
    let declaration: RequestDeclaration
    /// What a response or a download left behind, and where the call's events go; not part of
    /// equality.
    private var leftBehind = NotCompared(LeftBehind())
    /// How the call reads its body (``bodyDelivery``); not part of equality.
    var delivery = NotCompared(BodyDelivery.whole)

    /// What a call left behind for its error's reader, and the recorder of its events.
    private struct LeftBehind: Sendable {
        var errorBody: (any Sendable)?
        var downloadResumeData: DownloadResumeData?
        var retryRefusal: RetryRefusal?
        var events: CallRecorder?
        var detached: DetachedChain?
    }

    /// Why the call ended without a retry its ``RetryPolicy`` called for; `nil` when no retry
    /// was refused. Set on the outcome of a call whose policy's ``RetryBudget`` was spent. Not
    /// part of equality, like the decoded error body: it tells how the call ended, not which
    /// request this is.
    ///
    /// ```swift
    /// if error.context.retryRefusal == .budgetExhausted { print("not retried: \(error)") }
    /// ```
    public var retryRefusal: RetryRefusal? { leftBehind.value.retryRefusal }

    /// The payload an ``ErrorBodyDecoder`` read from a rejected response's body: what the server
    /// said, not which request this is.
    var errorBody: (any Sendable)? { leftBehind.value.errorBody }
    /// What a resumable download that failed left behind, to resume it (see
    /// ``RequestError/downloadResumeData``).
    var downloadResumeData: DownloadResumeData? { leftBehind.value.downloadResumeData }
    /// Where ``report(_:)`` sends the call's events; `nil` when nobody observes the call.
    var events: CallRecorder? { leftBehind.value.events }

    /// The rest of the chain after the link this context was given to, for its work that
    /// outlives the call; `nil` outside a chain that offers one.
    var detached: DetachedChain? { leftBehind.value.detached }

    /// A context for a call of the request `declaration` names, sent (or to be sent) to `url`.
    init(declaration: RequestDeclaration, method: HTTPMethod, url: URL?, attempts: Int = 1) {
        self.declaration = declaration
        self.method = method
        self.url = url
        self.attempts = attempts
    }

    /// A context whose request type and declared location are given as text.
    init(requestType: String, method: HTTPMethod, url: URL?, declaredLocation: String, attempts: Int = 1) {
        self.init(
            declaration: .described(type: requestType, location: declaredLocation), method: method, url: url,
            attempts: attempts)
    }

    /// The context with the final URL filled in.
    func with(url: URL?) -> RequestContext {
        var context = self
        context.url = url
        return context
    }

    /// The context with the number of attempts made.
    func with(attempts: Int) -> RequestContext {
        var context = self
        context.attempts = attempts
        return context
    }

    /// The context carrying a decoded error body.
    func with(errorBody: any Sendable) -> RequestContext {
        var context = self
        context.leftBehind.value.errorBody = errorBody
        return context
    }

    /// The context noting that a retry was refused.
    func with(retryRefusal: RetryRefusal?) -> RequestContext {
        var context = self
        context.leftBehind.value.retryRefusal = retryRefusal
        return context
    }

    /// The context whose ``report(_:)`` goes to `events`.
    func with(events: CallRecorder?) -> RequestContext {
        var context = self
        context.leftBehind.value.events = events
        return context
    }

    /// The context whose link may send through `detached` after its call.
    func with(detached: DetachedChain?) -> RequestContext {
        var context = self
        context.leftBehind.value.detached = detached
        return context
    }

    /// The context carrying what a failed resumable download left behind.
    func with(downloadResumeData: DownloadResumeData?) -> RequestContext {
        var context = self
        context.leftBehind.value.downloadResumeData = downloadResumeData
        return context
    }

    /// `METHOD url (RequestType)`, with query values redacted.
    public var description: String {
        "\(method.rawValue.debugEscaped) \(url.map(Self.redacted) ?? declaration.location) (\(requestType))"
    }

    /// The URL without user info and fragment, with every query value replaced by `***` (an item
    /// without `=`, which may be a token itself, whole). Items are separated by `&` or `;` (the
    /// older form servers still read), so that `?s3cr3t;page=2` shows `?***;page=***`.
    static func redacted(_ url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return "<unprintable URL>"
        }
        return redacted(components)
    }

    /// A URL string, redacted like a `URL`.
    static func redacted(_ url: String) -> String {
        guard let components = URLComponents(string: url) else { return "<unprintable URL>" }
        return redacted(components)
    }

    private static func redacted(_ components: URLComponents) -> String {
        var components = components
        components.user = nil
        components.password = nil
        components.fragment = nil
        let query = components.percentEncodedQuery
        components.percentEncodedQuery = nil
        var text = components.string ?? "<unprintable URL>"
        if let query, !query.isEmpty {
            text += "?"
            var start = query.startIndex
            for index in query.indices where query[index] == "&" || query[index] == ";" {
                text += redacted(item: query[start..<index]) + String(query[index])
                start = query.index(after: index)
            }
            text += redacted(item: query[start...])
        }
        return text
    }

    /// A query item with its value replaced by `***`; an item without `=` may be a token itself
    /// (`?s3cr3t`): hidden whole.
    private static func redacted(item: Substring) -> String {
        item.contains("=") ? "\(item.prefix { $0 != "=" })=***" : item.isEmpty ? "" : "***"
    }
}
