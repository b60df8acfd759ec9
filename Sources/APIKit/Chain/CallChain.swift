/// One call's chain: the session's ``Interceptor``s, outermost first, around the terminal
/// stage that hands a request to the transport (a send, a stream or a download).
///
/// Each link gets `next`, which checks the request it passes on for framing headers (only the
/// transport frames a message), then runs the rest of the chain. Every pass that reaches the
/// terminal is one attempt: the context a link sees numbers the attempt its pass will make,
/// and errors carry the number of attempts made. An error a link throws that is not a
/// ``RequestError`` is named for the stage it came from: before its `next` returned a
/// response, the request's interceptors; after, the response's.
final class CallChain: Sendable {
    typealias Terminal = @Sendable (_ urlRequest: URLRequest, _ attempt: Int) async throws(RequestError) -> CallResponse

    let links: [any Interceptor]
    let terminal: Terminal
    /// The context of an attempt: the request's, with a URL and the attempt's number.
    let context: @Sendable (_ url: URL?, _ attempts: Int) -> RequestContext
    /// The error of a response rejected by a hook: a status-code error for an
    /// ``UnacceptableStatusCode``, else a response interceptor's failure.
    let rejection: @Sendable (any Error, _ body: Data, URLResponse, RequestContext) -> RequestError
    /// Where the call's attempts, requests and response heads are reported; `nil` when nobody
    /// observes the call.
    let events: CallRecorder?
    /// The terminal of a link's work that outlives the call (``DetachedChain``): one transfer
    /// through the session's transport, the body read whole; `nil` when the chain offers none.
    let detachedTerminal: Terminal?
    /// The attempts that reached the terminal, and the URL of the last.
    private let sent = Locked<(attempts: Int, url: URL?)>((0, nil))

    init(
        links: [any Interceptor],
        context: @escaping @Sendable (URL?, Int) -> RequestContext,
        rejection: @escaping @Sendable (any Error, Data, URLResponse, RequestContext) -> RequestError,
        events: CallRecorder? = nil,
        detachedTerminal: Terminal? = nil,
        terminal: @escaping Terminal
    ) {
        self.links = links
        self.events = events
        self.detachedTerminal = detachedTerminal
        self.context = context
        self.rejection = rejection
        self.terminal = terminal
    }

    /// The attempts that reached the terminal, counted from 1 (a context counts the attempt an
    /// error stopped before it was sent), and the URL of the last.
    private var made: (attempts: Int, url: URL?) {
        let (attempts, url) = sent.withLock { ($0.attempts, $0.url) }
        return (max(1, attempts), url)
    }

    /// The context of the call's outcome: the URL last sent (`url` when a link answered
    /// without sending) and the attempts made.
    func outcomeContext(url: URL?) -> RequestContext {
        let made = made
        return context(made.url ?? url, made.attempts)
    }

    /// The number of the attempt the next pass to the terminal makes.
    private var nextAttempt: Int {
        sent.withLock { $0.attempts } + 1
    }

    /// Runs `urlRequest` through the whole chain.
    func run(_ urlRequest: URLRequest) async throws(RequestError) -> CallResponse {
        try await proceed(0, urlRequest)
    }

    private func proceed(_ index: Int, _ urlRequest: URLRequest) async throws(RequestError) -> CallResponse {
        guard !Task.isCancelled else {
            throw .cancelled(context: context(urlRequest.url, nextAttempt))
        }
        // the first pass of an attempt, whichever link starts it
        events?.attemptStarted(nextAttempt, url: urlRequest.url)
        guard index < links.count else {
            let attempt = sent.withLock { sent in
                sent.attempts += 1
                sent.url = urlRequest.url
                return sent.attempts
            }
            var sending = urlRequest
            if attempt > 1, urlRequest.httpBodyStream != nil, let body = urlRequest.requestBody {
                // A body stream is read once: a retry or a replay sends a fresh one over the same body.
                sending.setRequestBody(body)
            }
            guard let events else { return try await terminal(sending, attempt) }
            events.requestSent(sending)
            let response = try await terminal(sending, attempt)
            events.responseHead(response)
            return response
        }
        let link = links[index]
        var linkContext = context(urlRequest.url, nextAttempt)
        if detachedTerminal != nil {
            linkContext = linkContext.with(detached: DetachedChain(chain: self, index: index))
        }
        let received = Locked<CallResponse?>(nil)
        do {
            return try await link.intercept(urlRequest, context: linkContext) {
                (passed: URLRequest) async throws(RequestError) -> CallResponse in
                try passed.checkFraming(
                    source: Self.source(of: link), context: self.context(passed.url, self.nextAttempt))
                let response = try await self.proceed(index + 1, passed)
                received.withLock { $0 = response }
                return response
            }
        } catch let error as RequestError {
            throw error
        } catch {
            let madeContext = context(urlRequest.url, made.attempts)
            if Task.isCancelled { throw .cancelled(context: madeContext) }
            if let response = received.withLock({ $0 }) {
                throw rejection(error, response.data ?? Data(), response.urlResponse, madeContext)
            }
            throw .requestInterceptorFailed(error, context: linkContext.with(detached: nil))
        }
    }

    /// What a framing header added by `link` is blamed on.
    static func source(of link: any Interceptor) -> HeaderSource {
        (link as? any HeaderSourceNaming)?.headerSource ?? .interceptor(String(describing: type(of: link)))
    }
}

/// A link of the library's own that names itself otherwise than by its type in a
/// ``BuildError/framingHeader(_:source:)`` (the credential store names its authenticator).
protocol HeaderSourceNaming {
    var headerSource: HeaderSource { get }
}
