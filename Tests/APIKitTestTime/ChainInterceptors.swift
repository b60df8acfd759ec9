public import APIKit
import APIKitTestSupport
import Foundation

// Three interceptors of the kinds the chain is for — a cache, a limit on calls in flight, a
// record of every attempt — written with APIKit's public API only (this module imports it
// without `@testable`). The tests run them over `StubTransport` and over both real transports.

/// Answers a repeated `GET` from memory without calling `next`: the first response with a
/// status in `200..<300` and a body read whole is kept, by URL. Reports each lookup to the
/// call's observer (``CallEvent/Stage/cacheOutcome(_:)``).
public final class MemoryCache: Interceptor {
    private let stored = Protected<[URL: CallResponse]>([:])

    /// An empty cache.
    public init() {}

    /// How many responses are kept.
    public var count: Int { stored.withLock { $0.count } }

    /// Answers from memory, or passes the request on and keeps a `GET`'s accepted response.
    public func intercept(
        _ urlRequest: URLRequest,
        context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        guard context.method == .get, let url = urlRequest.url else { return try await next(urlRequest) }
        if let hit = stored.withLock({ $0[url] }) {
            try context.report(.cacheOutcome(.hit))
            return hit
        }
        try context.report(.cacheOutcome(.miss))
        let response = try await next(urlRequest)
        if let data = response.data, let http = response.urlResponse as? HTTPURLResponse,
            (200..<300).contains(http.statusCode)
        {
            stored.withLock { $0[url] = CallResponse(urlResponse: http, data: data) }
        }
        return response
    }
}

/// Holds the calls to one host to `limit` in flight at a time; the others wait, first come
/// first served, without holding a thread. Records the most it ever let through at once.
public final class HostLimit: Interceptor {
    private struct State {
        var inFlight: [String: Int] = [:]
        var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
        var most = 0
    }

    /// The most calls to one host in flight at once.
    public let limit: Int
    private let state = Protected(State())

    /// A limit of `limit` calls per host.
    public init(limit: Int) {
        self.limit = limit
    }

    /// The most calls to one host that were in flight at once.
    public var mostInFlight: Int { state.withLock { $0.most } }

    /// The calls waiting for a slot, all hosts together.
    public var waiting: Int { state.withLock { $0.waiting.values.reduce(0) { $0 + $1.count } } }

    /// Waits for a slot of the request's host, then passes the request on.
    public func intercept(
        _ urlRequest: URLRequest,
        context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        let host = urlRequest.url?.host ?? ""
        await acquire(host)
        defer { release(host) }
        return try await next(urlRequest)
    }

    private func acquire(_ host: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state -> Bool in
                guard state.inFlight[host, default: 0] < limit else {
                    state.waiting[host, default: []].append(continuation)
                    return false
                }
                state.inFlight[host, default: 0] += 1
                state.most = max(state.most, state.inFlight[host, default: 0])
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    private func release(_ host: String) {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if var queue = state.waiting[host], !queue.isEmpty {
                let first = queue.removeFirst()
                state.waiting[host] = queue
                return first  // the slot passes to the first waiting call
            }
            state.inFlight[host, default: 1] -= 1
            return nil
        }
        next?.resume()
    }
}

/// Records every attempt that passes it: its number, the status or the failure's stage, and
/// how long the rest of the chain took.
public final class AttemptLog: Interceptor {
    /// One attempt.
    public struct Entry: Sendable {
        /// The attempt's number, from 1.
        public var attempt: Int
        /// The request's method.
        public var method: HTTPMethod
        /// The response's status, `nil` for a failure.
        public var status: Int?
        /// The failure's stage, `nil` for a response.
        public var failure: RequestError.Stage?
        /// How long the rest of the chain took.
        public var duration: Duration
    }

    private let recorded = Protected<[Entry]>([])

    /// An empty log.
    public init() {}

    /// The attempts so far, in the order they ended.
    public var entries: [Entry] { recorded.withLock { $0 } }

    /// Passes the request on and records how the attempt ended.
    public func intercept(
        _ urlRequest: URLRequest,
        context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        let clock = ContinuousClock()
        let start = clock.now
        var entry = Entry(
            attempt: context.attempts, method: context.method, status: nil, failure: nil, duration: .zero)
        do {
            let response = try await next(urlRequest)
            entry.status = (response.urlResponse as? HTTPURLResponse)?.statusCode
            entry.duration = clock.now - start
            recorded.withLock { $0.append(entry) }
            return response
        } catch {
            entry.failure = error.stage
            entry.duration = clock.now - start
            recorded.withLock { $0.append(entry) }
            throw error
        }
    }
}
