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
    /// The context of an attempt: the request's, with a URL and the attempt's number; without
    /// the call's events, which the chain adds to the contexts it gives the links.
    let context: @Sendable (_ url: URL?, _ attempts: Int) -> RequestContext
    /// The error of a response rejected by a hook: a status-code error for an
    /// ``UnacceptableStatusCode``, else a response interceptor's failure.
    let rejection: @Sendable (any Error, _ body: Data, URLResponse, RequestContext) -> RequestError
    /// Where the call's attempts, requests and response heads are reported; `nil` when nobody
    /// observes the call.
    let events: CallRecorder?
    /// The transport of a link's work that outlives the call (``DetachedChain``), which sends
    /// through it with the body read whole; `nil` when the chain offers none.
    let detachedTransport: (any Transport)?
    /// Makes the recorder of a detached send, a call of its own in the session's events and log;
    /// `nil`, or a `nil` recorder, when nobody observes the session.
    let detachedEvents: (@Sendable (RequestContext) -> CallRecorder?)?
    /// The attempts that reached the terminal, and the URL of the last.
    private let sent = Locked<(attempts: Int, url: URL?)>((0, nil))

    init(
        links: [any Interceptor],
        context: @escaping @Sendable (URL?, Int) -> RequestContext,
        rejection: @escaping @Sendable (any Error, Data, URLResponse, RequestContext) -> RequestError,
        events: CallRecorder? = nil,
        detachedTransport: (any Transport)? = nil,
        detachedEvents: (@Sendable (RequestContext) -> CallRecorder?)? = nil,
        terminal: @escaping Terminal
    ) {
        self.links = links
        self.events = events
        self.detachedTransport = detachedTransport
        self.detachedEvents = detachedEvents
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
    fileprivate var nextAttempt: Int {
        sent.withLock { $0.attempts } + 1
    }

    /// Runs `urlRequest` through the whole chain.
    func run(_ urlRequest: URLRequest) async throws(RequestError) -> CallResponse {
        try await proceed(0, urlRequest)
    }

    fileprivate func proceed(_ index: Int, _ urlRequest: URLRequest) async throws(RequestError)
        -> CallResponse
    {
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
            if attempt > 1, urlRequest.httpBodyStream != nil {
                // A body stream is read once: a retry or a replay sends a fresh one over the same
                // body; a stream of the caller's own, read by the attempt before, cannot be.
                guard let body = urlRequest.requestBody else {
                    throw .transportFailed(
                        URLError(.requestBodyStreamExhausted), context: context(urlRequest.url, attempt))
                }
                sending.setRequestBody(body)
            }
            if sending.timeoutInterval > Self.longestTimeout {
                // no transfer outlasts it; corelibs traps on a timeout past Int.max milliseconds
                sending.timeoutInterval = Self.longestTimeout
            }
            guard let events else { return try await terminal(sending, attempt) }
            events.requestSent(sending)
            let response: CallResponse
            do {
                response = try await terminal(sending, attempt)
            } catch {
                events.transferFailed(error)
                throw error
            }
            events.responseHead(response)
            return response
        }
        let link = links[index]
        let attempt = nextAttempt
        let errorContext = context(urlRequest.url, attempt)
        // the link reports the call's events through its context; an error keeps none of them
        var linkContext = events.map { errorContext.with(events: $0) } ?? errorContext
        if detachedTransport != nil {
            linkContext = linkContext.with(detached: DetachedChain(chain: self, index: index))
        }
        // `next` is the pass's method: the pass is its context, no closure box is made.
        let pass = LinkPass(chain: self, index: index)
        do {
            return try await link.intercept(urlRequest, context: linkContext, next: pass.next)
        } catch let error as RequestError {
            throw error
        } catch {
            // the URL last sent, which a link after this one may have changed
            let made = made
            let madeContext = context(made.url ?? urlRequest.url, made.attempts)
            if Task.isCancelled { throw .cancelled(context: madeContext) }
            if let response = pass.received {
                throw rejection(error, response.data ?? Data(), response.urlResponse, madeContext)
            }
            throw .requestInterceptorFailed(error, context: errorContext)
        }
    }

    /// One pass of the chain through one link: what the link's `next` runs, and the response it
    /// last returned, which names the stage of an error the link throws after it.
    private final class LinkPass: Sendable {
        let chain: CallChain
        let index: Int
        private let response = Locked<CallResponse?>(nil)

        init(chain: CallChain, index: Int) {
            self.chain = chain
            self.index = index
        }

        /// The response `next` last returned in this pass, if any.
        var received: CallResponse? { response.withLock { $0 } }

        /// The link's `next`: checks the request it passes on for framing headers, then runs the
        /// rest of the chain.
        @Sendable func next(_ passed: URLRequest) async throws(RequestError) -> CallResponse {
            let chain = chain
            try passed.checkFraming(
                source: CallChain.source(of: chain.links[index]),
                context: chain.context(passed.url, chain.nextAttempt))
            let response = try await chain.proceed(index + 1, passed)
            self.response.withLock { $0 = response }
            return response
        }
    }

    /// The longest idle timeout handed to a transport, in seconds (about 31 years): a request's
    /// longer one, which means none in practice, is sent as this.
    static let longestTimeout: TimeInterval = 1e9

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
