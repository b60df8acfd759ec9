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
    /// The attempts that reached the terminal.
    private let attempts = Locked(0)
    /// The URL of the last request that reached the terminal.
    private let lastURL = Locked<URL?>(nil)

    init(
        links: [any Interceptor],
        context: @escaping @Sendable (URL?, Int) -> RequestContext,
        rejection: @escaping @Sendable (any Error, Data, URLResponse, RequestContext) -> RequestError,
        terminal: @escaping Terminal
    ) {
        self.links = links
        self.context = context
        self.rejection = rejection
        self.terminal = terminal
    }

    /// The attempts made so far (at least 1, for the context of an outcome).
    var attemptsMade: Int {
        max(1, attempts.withLock { $0 })
    }

    /// The context of the call's outcome: the URL last sent (`url` when a link answered
    /// without sending) and the attempts made.
    func outcomeContext(url: URL?) -> RequestContext {
        context(lastURL.withLock { $0 } ?? url, attemptsMade)
    }

    /// Runs `urlRequest` through the whole chain.
    func run(_ urlRequest: URLRequest) async throws(RequestError) -> CallResponse {
        try await proceed(0, urlRequest)
    }

    private func proceed(_ index: Int, _ urlRequest: URLRequest) async throws(RequestError) -> CallResponse {
        guard !Task.isCancelled else {
            throw .cancelled(context: context(urlRequest.url, attempts.withLock { $0 } + 1))
        }
        guard index < links.count else {
            let attempt = attempts.withLock { attempts in
                attempts += 1
                return attempts
            }
            lastURL.withLock { $0 = urlRequest.url }
            guard attempt > 1, urlRequest.httpBodyStream != nil, let body = urlRequest.requestBody else {
                return try await terminal(urlRequest, attempt)
            }
            // A body stream is read once: a retry or a replay sends a fresh one over the same body.
            var fresh = urlRequest
            fresh.setRequestBody(body)
            return try await terminal(fresh, attempt)
        }
        let link = links[index]
        let linkContext = context(urlRequest.url, attempts.withLock { $0 } + 1)
        let received = Locked<CallResponse?>(nil)
        do {
            return try await link.intercept(urlRequest, context: linkContext) {
                (passed: URLRequest) async throws(RequestError) -> CallResponse in
                if let name = passed.firstFramingHeader() {
                    throw .buildFailed(
                        .framingHeader(name, source: Self.source(of: link)),
                        context: self.context(passed.url, self.attempts.withLock { $0 } + 1))
                }
                let response = try await self.proceed(index + 1, passed)
                received.withLock { $0 = response }
                return response
            }
        } catch let error as RequestError {
            throw error
        } catch {
            let madeContext = context(urlRequest.url, attemptsMade)
            if Task.isCancelled { throw .cancelled(context: madeContext) }
            if let response = received.withLock({ $0 }) {
                throw rejection(error, response.data ?? Data(), response.urlResponse, madeContext)
            }
            throw .requestInterceptorFailed(error, context: linkContext)
        }
    }

    /// What a framing header added by `link` is blamed on.
    private static func source(of link: any Interceptor) -> HeaderSource {
        (link as? any HeaderSourceNaming)?.headerSource ?? .interceptor(String(describing: type(of: link)))
    }
}

/// A link of the library's own that names itself otherwise than by its type in a
/// ``BuildError/framingHeader(_:source:)`` (the credential store names its authenticator).
protocol HeaderSourceNaming {
    var headerSource: HeaderSource { get }
}
