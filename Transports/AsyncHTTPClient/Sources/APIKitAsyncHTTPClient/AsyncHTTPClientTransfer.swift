import APIKit
import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request with a streamed body (a file, a multipart body with files, a foreign body
/// stream) through an ``AsyncHTTPClientTransport``, run in a task through AsyncHTTPClient's
/// `async` API: converts it, runs it against the idle timeout, hands the response over as its
/// ``Delivery`` asks and ends it exactly once. A body in memory or none takes
/// ``EventLoopTransfer``'s road instead.
///
/// `send` and `stream` differ only in what they do with the response: ``Delivery/whole(progress:completion:)``
/// collects the body and calls the completion, ``Delivery/stream(_:)`` reports the head and
/// each chunk as it arrives. The conversion, the timeouts, cancellation, the mapping of errors
/// and the single end are this one type's.
///
/// Progress and the end share a lock, so no progress is reported once the end has been
/// decided (the request body may still be pulled by the client after a server answered early).
/// The idle clock has a lock of its own, never held while a handler runs: the
/// ``IdleSweeper`` reads every transfer's clock, and a progress handler that takes its time
/// must not hold the others' timeouts back.
final class AsyncHTTPClientTransfer: IdleWatched {
    /// What the transfer does with the response.
    enum Delivery: Sendable {
        /// Collect the whole body, report progress, then call `completion` once.
        case whole(
            progress: (@Sendable (TransferProgress) -> Void)?,
            completion: @Sendable (Result<TransportResponse, any Error>) -> Void)
        /// Report the head, then each chunk as it arrives, then the end, through `onEvent`:
        /// called from the transfer's task, one event at a time, the next chunk awaited only
        /// once `onEvent` has returned.
        case stream(@Sendable (TransportStreamEvent) -> Void)
    }

    private struct State {
        var progress = TransferProgress()
        var isFinished = false
        /// Until ``attach(_:)``: the transport's `send` or `stream` has not returned yet.
        var isStarting = true
        /// The end, when the transfer ended before `send` or `stream` returned: delivered by
        /// ``attach(_:)``, never on the caller's thread.
        var pendingEnd: (@Sendable () -> Void)?
    }

    /// The idle clock, and what a timeout needs.
    private struct Idleness {
        var clock: IdleClock
        /// Set by ``timeOut()``: the transfer's task is cancelled because it was idle too long.
        var isTimedOut = false
        /// The task that runs the transfer, to cancel it when it times out; `nil` once it ended.
        var task: Task<Void, Never>?
        var isFinished = false
    }

    private let request: URLRequest
    private let delivery: Delivery
    /// What watches the idle clock, and whose clock it reads.
    private let sweeper: IdleSweeper
    private let state = NIOLockedValueBox(State())
    private let idleness: NIOLockedValueBox<Idleness>

    /// - Parameters:
    ///   - request: The request as APIKit built it.
    ///   - delivery: What to do with the response.
    ///   - sweeper: What times the transfer out, and the clock it reads; the shared one unless a
    ///     test drives one by hand.
    init(request: URLRequest, delivery: Delivery, sweeper: IdleSweeper = .shared) {
        self.request = request
        self.delivery = delivery
        self.sweeper = sweeper
        self.idleness = NIOLockedValueBox(Idleness(clock: IdleClock(now: sweeper.now())))
    }

    /// Hands over the task that runs the transfer, so that a timeout can cancel it; call as
    /// `send` or `stream` returns. An end that came before is delivered now, on a Dispatch
    /// thread: the transfer's task may fail at once (a URL AsyncHTTPClient refuses) on another
    /// thread while the caller is still in `send`, and must not call back before it returns.
    func attach(_ task: Task<Void, Never>) {
        let isTimedOut = idleness.withLockedValue { idleness in
            if !idleness.isFinished { idleness.task = task }
            return idleness.isTimedOut
        }
        if isTimedOut { task.cancel() }
        let pendingEnd = state.withLockedValue { state in
            state.isStarting = false
            defer { state.pendingEnd = nil }
            return state.pendingEnd
        }
        if let pendingEnd { DispatchQueue.global().async(execute: pendingEnd) }
    }

    /// Runs the transfer and ends it, once, however it ends: the completion, or the stream's
    /// `.finished` or `.failed`.
    func run(on client: HTTPClient) async {
        await run { [self] in try await exchangeWithinTimeout(on: client) }
    }

    /// ``run(on:)`` with the exchange given: the single end, decided from what `exchange`
    /// returned and whether the ``IdleSweeper`` timed the transfer out first.
    ///
    /// A timeout, once declared, is the verdict even when the exchange then succeeds: the
    /// cancellation reaches AsyncHTTPClient through Swift's global pool, and when that pool is
    /// busy the whole response may be read by the event loop in the meantime — a body that
    /// arrived complete is not cancelled, and would otherwise be delivered past its timeout.
    func run(exchange: () async throws -> TransportResponse) async {
        let outcome: Result<TransportResponse, any Error>
        do {
            outcome = .success(try await exchange())
        } catch {
            outcome = .failure(error)
        }
        let isTimedOut = idleness.withLockedValue { idleness in
            idleness.isFinished = true
            idleness.task = nil
            return idleness.isTimedOut
        }
        let result = URLError.verdict(
            outcome, isTimedOut: isTimedOut, isCancelled: Task.isCancelled, url: request.url)
        let end: @Sendable () -> Void = { [delivery] in
            switch (delivery, result) {
            case (.whole(_, let completion), _): completion(result)
            case (.stream(let onEvent), .success): onEvent(.finished)
            case (.stream(let onEvent), .failure(let error)): onEvent(.failed(error))
            }
        }
        let endsNow = state.withLockedValue { state in
            state.isFinished = true
            if state.isStarting { state.pendingEnd = end }
            return !state.isStarting
        }
        if endsNow { end() }
    }

    /// The exchange, raced against the idle timeout when the request has one.
    private func exchangeWithinTimeout(on client: HTTPClient) async throws -> TransportResponse {
        let outgoing = try OutgoingRequest(request, onChunkSent: { [self] count in sent(count) })
        if let total = outgoing.expectedBytesToSend {
            // Known from the start, reported with the first step (as URLSession's first step is
            // the first bytes sent): a step that says nothing moved is not reported.
            state.withLockedValue { $0.progress.expectedBytesToSend = total }
        }
        guard let idleTimeout = outgoing.idleTimeout else {
            return try await exchange(outgoing, on: client)
        }
        // The idle clock starts now, when the transfer does: the wait for this task to be
        // scheduled is not the network's idleness. It covers the wait for a connection and for
        // the head too (AsyncHTTPClient is given no deadline), as on the event-loop road.
        startIdleClock(limit: idleTimeout)
        defer { sweeper.unwatch(self) }
        return try await exchange(outgoing, on: client)
    }

    /// Starts the idle clock now, and has the sweeper watch it.
    ///
    /// - Parameter limit: How long the transfer may be idle, in seconds.
    func startIdleClock(limit: TimeInterval) {
        let now = sweeper.now()
        let firstDeadline = idleness.withLockedValue { $0.clock.start(at: now, limit: limit) }
        sweeper.watch(self, firstDeadline: firstDeadline)
    }

    /// Sends the request and hands the response over: collected (the body in the returned
    /// response) or streamed (the body reported chunk by chunk, none returned).
    private func exchange(_ outgoing: OutgoingRequest, on client: HTTPClient) async throws -> TransportResponse {
        let response = try await client.execute(outgoing.request, deadline: .distantFuture)
        touch()
        let head = try HTTPURLResponse.make(response, requestURL: request.url)
        let expected = response.headers.first(name: "content-length").flatMap { Int64($0) }
        var data = Data()
        switch delivery {
        case .whole:
            if let expected, expected > 0 { data.reserveCapacity(Int(min(expected, 16 << 20))) }
        case .stream(let onEvent):
            callingCaller { onEvent(.response(head)) }
        }
        for try await buffer in response.body {
            let count = Int64(buffer.readableBytes)
            report {
                $0.bytesReceived += count
                $0.expectedBytesToReceive = expected
            }
            switch delivery {
            case .whole:
                data.append(contentsOf: buffer.readableBytesView)
            case .stream(let onEvent):
                // The idle clock measures the network, not the consumer.
                callingCaller { onEvent(.data(Data(buffer: buffer))) }
            }
        }
        return TransportResponse(data: data, urlResponse: head)
    }

    /// A look at the idle clock, for the ``IdleSweeper``: idle too long only when the last
    /// look found it so too (see ``IdleSweeper`` for why).
    func idleCheck(now: UInt64) -> IdleCheck {
        idleness.withLockedValue { $0.clock.check(at: now) }
    }

    /// Ends the transfer with `URLError(.timedOut)`: cancels its task.
    ///
    /// Does nothing once the transfer has ended.
    func timeOut() {
        let task = idleness.withLockedValue { idleness -> Task<Void, Never>? in
            guard !idleness.isFinished else { return nil }
            idleness.isTimedOut = true
            return idleness.task
        }
        task?.cancel()
    }

    private func sent(_ count: Int) {
        report { $0.bytesSent += Int64(count) }
    }

    /// Notes that something was sent or received now: the idle clock starts again.
    func touch() {
        let now = sweeper.now()
        idleness.withLockedValue { $0.clock.touch(at: now) }
    }

    /// Runs `body`, the caller's code, with the idle clock standing still: a slow consumer or
    /// progress handler is not an idle network.
    private func callingCaller(_ body: () -> Void) {
        idleness.withLockedValue { $0.clock.callerStarted() }
        body()
        let now = sweeper.now()
        idleness.withLockedValue { $0.clock.callerReturned(at: now) }
    }

    /// Whether the sweeper timed the transfer out.
    var isTimedOut: Bool {
        idleness.withLockedValue { $0.isTimedOut }
    }

    /// Updates the progress and reports it, unless the completion was decided.
    private func report(_ update: (inout TransferProgress) -> Void) {
        touch()
        state.withLockedValue { state in
            guard !state.isFinished else { return }
            update(&state.progress)
            // Under the lock: the end cannot be decided while a report is running.
            if case .whole(let progress?, _) = delivery { callingCaller { progress(state.progress) } }
        }
    }
}

extension HTTPURLResponse {
    /// The Foundation response for what AsyncHTTPClient received: the final URL after
    /// redirects, the status, the HTTP version and the headers (those that came more than once
    /// joined with ", "). The last one made is reused while heads come back the same
    /// (``ResponseHeadCache``).
    ///
    /// - Parameters:
    ///   - response: What AsyncHTTPClient received.
    ///   - requestURL: The URL the request was sent to.
    ///   - cache: The last response made, to reuse; the process's unless a test gives its own.
    /// - Throws: `URLError(.badServerResponse)` when Foundation refuses the response.
    static func make(
        _ response: HTTPClientResponse, requestURL: URL?, cache: ResponseHeadCache = .shared
    ) throws -> HTTPURLResponse {
        // Without a redirect the final URL is the request's: `response.url` would parse it
        // again from AsyncHTTPClient's string.
        let finalURL = response.history.count > 1 ? response.url : requestURL
        return try make(
            url: finalURL ?? response.url, status: response.status, version: response.version,
            headers: response.headers, requestURL: requestURL, cache: cache)
    }

    /// The Foundation response for a response head AsyncHTTPClient received: ``make(_:requestURL:cache:)``
    /// from its parts.
    ///
    /// - Parameters:
    ///   - url: The final URL, after redirects.
    ///   - status: The status.
    ///   - version: The HTTP version.
    ///   - headers: The header fields.
    ///   - requestURL: The URL the request was sent to, for the error.
    ///   - cache: The last response made, to reuse.
    /// - Throws: `URLError(.badServerResponse)` when Foundation refuses the response.
    static func make(
        url: URL?, status: HTTPResponseStatus, version: HTTPVersion, headers: HTTPHeaders, requestURL: URL?,
        cache: ResponseHeadCache = .shared
    ) throws -> HTTPURLResponse {
        guard let url,
            let made = cache.response(
                url: url, status: status.code, version: version, headers: headers,
                build: {
                    HTTPURLResponse(
                        url: url,
                        statusCode: Int(status.code),
                        httpVersion: versionString(version),
                        headerFields: fields(headers))
                })
        else { throw URLError(.badServerResponse, underlying: nil, url: requestURL) }
        return made
    }

    /// The header fields as Foundation takes them: those that came more than once — their
    /// names compared without case, as HTTP does — joined with ", " under the first spelling.
    private static func fields(_ headers: HTTPHeaders) -> [String: String] {
        var fields: [String: String] = [:]
        // One allocation rather than one per doubling as the headers are added.
        fields.reserveCapacity(headers.count)
        for (name, value) in headers {
            let key = fields[name] != nil ? name : fields.keys.first { Self.namesEqual($0, name) }
            if let key, let existing = fields[key] {
                fields[key] = existing + ", " + value
            } else {
                fields[name] = value
            }
        }
        return fields
    }

    /// Whether two header names are the same, ASCII letters compared without case; no string is
    /// made (a head's names are compared with each other once per new head).
    private static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        return zip(lhs.utf8, rhs.utf8).allSatisfy { left, right in
            left == right || (left | 0x20 == right | 0x20 && (left | 0x20) >= 0x61 && (left | 0x20) <= 0x7A)
        }
    }

    /// `HTTP/1.1`, `HTTP/2`: literals for the versions a response has in practice, rather than
    /// a string built for every response.
    private static func versionString(_ version: HTTPVersion) -> String {
        switch (version.major, version.minor) {
        case (1, 1): "HTTP/1.1"
        case (2, _): "HTTP/2"
        case (1, 0): "HTTP/1.0"
        case (let major, _) where major >= 2: "HTTP/\(major)"
        case (let major, let minor): "HTTP/\(major).\(minor)"
        }
    }
}
