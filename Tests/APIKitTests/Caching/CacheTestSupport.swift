import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation

@_spi(Testing) @testable import APIKit

/// A `GET` (or another method) to `path` with headers of its own; its response is the body as
/// text and the head.
struct CacheCall: Request, RequestConfiguration {
    var path = "resource"
    var method: HTTPMethod = .get
    var headers: [String: String] = [:]
    /// A query string, added as is.
    var query: String?

    var base: URL { stubBase }
    var configuration: Self { self }
    var parser: StringParser { StringParser() }

    init(
        _ path: String = "resource", method: HTTPMethod = .get, query: String? = nil, headers: [String: String] = [:]
    ) {
        self.path = path
        self.method = method
        self.query = query
        self.headers = headers
    }

    func intercept(urlRequest: URLRequest) throws -> URLRequest {
        var request = urlRequest
        if let query, let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.percentEncodedQuery = query
            request.url = components.url
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    func response(from object: String, urlResponse: URLResponse) throws -> CacheAnswer {
        let head = urlResponse as! HTTPURLResponse
        return CacheAnswer(
            body: object, status: head.statusCode, fromCache: urlResponse.isFromHTTPCache,
            headers: head.allHeaderFields.reduce(into: [:]) { fields, field in
                fields[(field.key as! String).lowercased()] = field.value as? String
            })
    }

    /// Accepts every status, so that a stored 404 reads like a 200.
    func intercept(urlResponse: URLResponse) throws {}
}

/// What `URLSessionTransport` does with a redirect, below the cache: a request for the path
/// ending in `from` (that `when` accepts) is sent to `to` instead, and the cache sees only the
/// final response, whose URL is `to`'s.
struct FollowsRedirect: Interceptor {
    var from: String
    var to: String
    var when: @Sendable (URLRequest) -> Bool = { _ in true }

    func intercept(
        _ urlRequest: URLRequest, context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        guard let url = urlRequest.url, url.lastPathComponent == from, when(urlRequest) else {
            return try await next(urlRequest)
        }
        var redirected = urlRequest
        redirected.url = url.deletingLastPathComponent().appendingPathComponent(to)
        return try await next(redirected)
    }
}

/// What a ``CacheCall`` returns.
struct CacheAnswer: Sendable, Equatable {
    var body: String
    var status: Int
    var fromCache: Bool
    /// Header names lowercased.
    var headers: [String: String]
}

/// A session with an ``HTTPCache`` on a hand-driven clock, over a stub that answers from a
/// script and records what reached it.
final class CacheHarness: Sendable {
    let time = ManualTime()
    let store: MemoryCacheStore
    let cache: HTTPCache
    private let sent = Locked<[URLRequest]>([])
    private let script: Locked<@Sendable (URLRequest, Int) -> StubResponse>
    /// The links after the cache, before the network.
    private let after: [any Interceptor]

    /// - Parameters:
    ///   - collapsesRequests: The cache's setting.
    ///   - answersStreamsAndDownloads: The cache's setting.
    ///   - after: Links between the cache and the network (what a transport does below the
    ///     cache, such as following a redirect).
    ///   - cacheStore: The cache's store in place of ``store``.
    ///   - respond: Answers the n-th request (from 1) that reaches the network.
    init(
        maxBytes: Int = 1 << 20, collapsesRequests: Bool = false, answersStreamsAndDownloads: Bool = false,
        after: [any Interceptor] = [], cacheStore: (any HTTPCacheStore)? = nil,
        _ respond: @escaping @Sendable (URLRequest, Int) -> StubResponse
    ) {
        store = MemoryCacheStore(maxBytes: maxBytes)
        cache = HTTPCache(
            store: cacheStore ?? store, time: time, collapsesRequests: collapsesRequests,
            answersStreamsAndDownloads: answersStreamsAndDownloads)
        script = Locked(respond)
        self.after = after
    }

    var session: Session { session(observing: nil) }

    /// The harness's session, its calls observed by `observer`.
    func session(observing observer: (@Sendable (CallEvent) -> Void)?) -> Session {
        let transport = StubTransport(time: time) { [sent, script] request in
            let count = sent.withLock { sent in
                sent.append(request)
                return sent.count
            }
            return script.withLock { $0 }(request, count)
        }
        return Session(transport: transport, interceptors: [cache] + after, onCallEvent: observer).timed(by: time)
    }

    /// The requests that reached the network, in order.
    var requests: [URLRequest] { sent.withLock { $0 } }

    /// Changes what the network answers.
    func respond(_ respond: @escaping @Sendable (URLRequest, Int) -> StubResponse) {
        script.withLock { $0 = respond }
    }

    /// The date `seconds` from the clock's start, as an IMF-fixdate.
    func date(_ seconds: TimeInterval = 0) -> String {
        Self.format(time.start.addingTimeInterval(seconds))
    }

    /// The current date of the clock, as an IMF-fixdate.
    var now: String { Self.format(time.now) }

    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// Performs `call`, and throws its error.
    func send(_ call: CacheCall = CacheCall()) async throws(RequestError) -> CacheAnswer {
        try await call.response(using: session)
    }
}
