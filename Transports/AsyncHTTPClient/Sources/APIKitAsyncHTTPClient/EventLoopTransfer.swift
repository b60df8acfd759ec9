import APIKit
import AsyncHTTPClient
import Dispatch
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request of the common kind — a body in memory or none — run on AsyncHTTPClient's event
/// loop, without a Swift task: the whole response collected (the transport's `send`), or
/// streamed (its `stream(_:onEvent:)`).
///
/// AsyncHTTPClient calls this delegate on the request's event loop as the response arrives.
/// Collected, the body is gathered there, the `HTTPURLResponse` made there when the response
/// ends, and the completion called on a Dispatch queue (``completionQueue``) — or, for the
/// transport's `async` send, on the event loop itself, where the completion only resumes the
/// awaiting task. A progress handler is never called on the event loop: the steps are counted
/// there as each slice of the body is written and each part of the response arrives, and
/// handed to the handler on a serial queue of the transfer's own (``ProgressRelay``), where the
/// completion follows them. Streamed, the head and each chunk are handed to `onEvent` on a
/// serial queue of the transfer's own, the end last; AsyncHTTPClient reads on while at most
/// ``streamQueueLimit`` bytes wait there (the network and the consumer's disk work at once),
/// and waits for `onEvent` beyond that.
///
/// The threads woken for a request are the event loop's and the one that runs the completion
/// or the awaiting task (or each delivery to a progress handler or `onEvent`), as for
/// AsyncHTTPClient's own calls; ``AsyncHTTPClientTransfer``'s road also wakes a transfer
/// executor thread to start the task and again to resume it, and makes a task and its
/// continuation. The idle clock moves on the event loop as bytes go and come, and stands still
/// while a stream's events wait for `onEvent` or run, so a busy Swift pool or a busy Dispatch
/// cannot make the transfer look idle.
///
/// A body streamed from a file or an `InputStream` (read by a task, not on the event loop) takes
/// ``AsyncHTTPClientTransfer``'s road.
///
/// No AsyncHTTPClient deadline is given (this API's would bound the whole response, not the
/// head): the idle clock covers the wait for a connection and for the head from the start. A
/// connection AsyncHTTPClient keeps retrying so fails with `.timedOut` at the request's
/// timeout, or with the last connection error at the client's connect timeout if that is
/// shorter.
///
/// `@unchecked Sendable`: `head`, `streamedResponse`, `visits`, `lastVisitedURL` and `body` are
/// touched only by the delegate's methods, which AsyncHTTPClient calls one at a time on the
/// request's event loop; everything else is under `state`'s lock or immutable.
final class EventLoopTransfer: HTTPClientResponseDelegate, IdleWatched, TransportTask, @unchecked Sendable {
    typealias Response = TransportResponse

    /// Where completions are called: a concurrent Dispatch queue, never the event loop (the
    /// pipeline parses the body where the completion is called).
    static let completionQueue = DispatchQueue(label: "APIKitAsyncHTTPClient.completions", attributes: .concurrent)

    private struct State {
        var clock: IdleClock
        /// The request in AsyncHTTPClient, to cancel it; `nil` before it starts and once it ended.
        var task: HTTPClient.Task<TransportResponse>?
        /// Taken when the transfer ends: once called, nothing holds it.
        var completion: (@Sendable (Result<TransportResponse, any Error>) -> Void)?
        /// A stream's `onEvent`, for the head and the chunks; dropped when the transfer ends.
        var onEvent: (@Sendable (TransportStreamEvent) -> Void)?
        /// The bytes of a stream's chunks queued for `onEvent` and not yet taken.
        var queuedBytes = 0
        /// What AsyncHTTPClient waits for before it reads on, held while a stream's queue is full.
        var demand: EventLoopPromise<Void>?
        var isWatched = false
        var isTimedOut = false
        var isCancelled = false
        var isFinished = false
    }

    private let requestURL: URL?
    private let sweeper: IdleSweeper
    /// Where the completion is called; `nil` for the event loop.
    private let queue: DispatchQueue?
    /// The caller's progress handler and its queue, when there is one: the completion is
    /// called there, after the steps.
    private let progress: ProgressRelay?
    /// A stream's events queue: serial, where `onEvent` runs, one event at a time; inactive
    /// until the transfer is started. `nil` for a transfer that collects the body.
    private let events: DispatchQueue?
    /// The transport, kept while the transfer runs: a client it owns outlives the transfer.
    private let owner: AnyObject
    private let state: NIOLockedValueBox<State>

    private var head: HTTPResponseHead?
    /// A stream's response, as reported to `onEvent`.
    private var streamedResponse: HTTPURLResponse?
    private var visits = 0
    private var lastVisitedURL: URL?
    private var body = Data()

    private init(
        requestURL: URL?,
        owner: AnyObject,
        sweeper: IdleSweeper,
        queue: DispatchQueue?,
        progress: ProgressRelay? = nil,
        events: DispatchQueue? = nil,
        onEvent: (@Sendable (TransportStreamEvent) -> Void)? = nil,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) {
        self.requestURL = requestURL
        self.owner = owner
        self.sweeper = sweeper
        self.queue = queue
        self.progress = progress
        self.events = events
        self.state = NIOLockedValueBox(
            State(clock: IdleClock(now: sweeper.now()), completion: completion, onEvent: onEvent))
    }

    /// Starts `urlRequest` on this road when it can take it, and returns the transfer; `nil`
    /// when it cannot (a streamed body), for ``AsyncHTTPClientTransfer``'s road.
    ///
    /// - Parameters:
    ///   - urlRequest: The request as APIKit built it.
    ///   - client: The client that sends it.
    ///   - owner: What to keep alive until the transfer ends (the transport).
    ///   - sweeper: What times the transfer out; the shared one unless a test drives one.
    ///   - queue: Where to call `completion`: ``completionQueue`` unless it only resumes a task
    ///     (`nil`: on the event loop, or on the calling thread when the request is refused
    ///     before it starts).
    ///   - progress: Receives the progress, on a serial queue that targets `queue` (or
    ///     ``completionQueue``), where `completion` is then called after every step.
    ///   - completion: Called once; on a queue, never before this returns.
    /// - Returns: The transfer, to cancel it, or `nil`.
    static func start(
        _ urlRequest: URLRequest,
        on client: HTTPClient,
        owner: AnyObject,
        sweeper: IdleSweeper = .shared,
        queue: DispatchQueue? = completionQueue,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> EventLoopTransfer? {
        guard urlRequest.httpBodyStream == nil else { return nil }
        let relay = progress.map { handler in
            ProgressRelay(
                handler: handler, expectedBytesToSend: urlRequest.httpBody.map { Int64($0.count) },
                target: queue ?? completionQueue)
        }
        let transfer = EventLoopTransfer(
            requestURL: urlRequest.url, owner: owner, sweeper: sweeper, queue: queue, progress: relay,
            completion: completion)
        transfer.launch(urlRequest, on: client)
        return transfer
    }

    /// Starts `urlRequest` on this road as a stream when it can take it, and returns the
    /// transfer; `nil` when it cannot (a streamed body), for ``AsyncHTTPClientTransfer``'s road.
    ///
    /// The events follow ``APIKit/Transport/stream(_:onEvent:)``'s rules: `onEvent` runs on a
    /// serial queue of the transfer's own, not before the request is handed to AsyncHTTPClient
    /// and never concurrently with itself. AsyncHTTPClient reads on while at most
    /// ``streamQueueLimit`` bytes of chunks wait for `onEvent`; beyond that it waits until
    /// `onEvent` has taken half of them. The idle clock stands still while events
    /// wait or run: a slow consumer is not an idle network.
    ///
    /// - Parameters:
    ///   - urlRequest: The request as APIKit built it.
    ///   - client: The client that sends it.
    ///   - owner: What to keep alive until the transfer ends (the transport).
    ///   - sweeper: What times the transfer out; the shared one unless a test drives one.
    ///   - onEvent: Receives the head, each chunk, then `.finished` or `.failed`.
    /// - Returns: The transfer, to cancel it, or `nil`.
    static func stream(
        _ urlRequest: URLRequest,
        on client: HTTPClient,
        owner: AnyObject,
        sweeper: IdleSweeper = .shared,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> EventLoopTransfer? {
        guard urlRequest.httpBodyStream == nil else { return nil }
        let events = DispatchQueue(
            label: "APIKitAsyncHTTPClient.stream", attributes: .initiallyInactive, target: completionQueue)
        let transfer = EventLoopTransfer(
            requestURL: urlRequest.url, owner: owner, sweeper: sweeper, queue: nil, events: events, onEvent: onEvent,
            completion: { result in
                let end: TransportStreamEvent
                switch result {
                case .success: end = .finished
                case .failure(let error): end = .failed(error)
                }
                events.async { onEvent(end) }
            })
        transfer.launch(urlRequest, on: client)
        events.activate()
        return transfer
    }

    /// Hands `urlRequest` to `client` with this transfer as its delegate, or ends the transfer
    /// with the error when AsyncHTTPClient cannot take it.
    private func launch(_ urlRequest: URLRequest, on client: HTTPClient) {
        let request: HTTPClient.Request
        do {
            request = try Self.makeRequest(urlRequest)
        } catch {
            end(.failure(error))
            return
        }
        let task = client.execute(request: request, delegate: self, eventLoop: .indifferent, deadline: nil)
        attach(task, idleTimeout: OutgoingRequest.idleTimeout(of: urlRequest))
    }

    /// AsyncHTTPClient's request for `urlRequest`: its method, its header fields but those that
    /// frame the body (AsyncHTTPClient sets them from the body), and its body, written in slices
    /// so that the idle clock moves while a large one goes out.
    static func makeRequest(_ urlRequest: URLRequest) throws -> HTTPClient.Request {
        guard let url = urlRequest.url else { throw URLError(.badURL, underlying: nil, url: nil) }
        return try HTTPClient.Request(
            url: url,
            method: NIOHTTP1.HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET"),
            headers: OutgoingRequest.headers(of: urlRequest),
            body: urlRequest.httpBody.map { .slices(of: ByteBuffer(data: $0), size: OutgoingRequest.chunkSize) })
    }

    /// Keeps `task` to cancel it, starts the idle clock, and ends the transfer when the task does.
    private func attach(_ task: HTTPClient.Task<TransportResponse>, idleTimeout: TimeInterval?) {
        let now = sweeper.now()
        let firstDeadline: UInt64? = state.withLockedValue { state in
            state.task = task
            guard let idleTimeout else { return nil }
            state.isWatched = true
            return state.clock.start(at: now, limit: idleTimeout)
        }
        if let firstDeadline { sweeper.watch(self, firstDeadline: firstDeadline) }
        task.futureResult.whenComplete { [self] result in end(result) }
    }

    /// Stops the transfer; it ends with `URLError(.cancelled)`.
    func cancel() {
        stop(marking: \.isCancelled)
    }

    func idleCheck(now: UInt64) -> IdleCheck {
        state.withLockedValue { $0.clock.check(at: now) }
    }

    func timeOut() {
        stop(marking: \.isTimedOut)
    }

    /// Cancels the request in AsyncHTTPClient, unless the transfer has ended, noting why first.
    ///
    /// A stream whose queue is full has AsyncHTTPClient waiting for `onEvent`: it is let go at
    /// once, so that the transfer fails now rather than once the consumer has worked the queue
    /// down (the chunks already queued still come before the end).
    private func stop(marking reason: WritableKeyPath<State, Bool>) {
        let (task, demand) = state.withLockedValue {
            state -> (HTTPClient.Task<TransportResponse>?, EventLoopPromise<Void>?) in
            guard !state.isFinished else { return (nil, nil) }
            state[keyPath: reason] = true
            defer { state.demand = nil }
            return (state.task, state.demand)
        }
        task?.cancel()
        demand?.succeed(())
    }

    /// Ends the transfer once: a timeout, once declared, is the verdict even when the response
    /// then arrived whole (as for ``AsyncHTTPClientTransfer/run(exchange:)``).
    private func end(_ outcome: Result<TransportResponse, any Error>) {
        let ending = state.withLockedValue { state in
            defer {
                state.isFinished = true
                state.task = nil
                state.completion = nil
                state.onEvent = nil
            }
            return (
                completion: state.completion, isWatched: state.isWatched, isTimedOut: state.isTimedOut,
                isCancelled: state.isCancelled
            )
        }
        guard let completion = ending.completion else { return }
        if ending.isWatched { sweeper.unwatch(self) }
        let result = URLError.verdict(
            outcome, isTimedOut: ending.isTimedOut, isCancelled: ending.isCancelled, url: requestURL)
        if let progress {
            progress.finish { completion(result) }
        } else if let queue {
            queue.async { completion(result) }
        } else {
            completion(result)
        }
    }

    /// Notes that something was sent or received now.
    private func touch() {
        let now = sweeper.now()
        state.withLockedValue { $0.clock.touch(at: now) }
    }

    /// The bytes of a stream's chunks waiting for `onEvent` now.
    var queuedStreamBytes: Int {
        state.withLockedValue { $0.queuedBytes }
    }

    /// The most bytes of a stream's chunks queued for `onEvent` before AsyncHTTPClient stops
    /// reading: the network reads ahead of a consumer that writes to disk, within a bound.
    static let streamQueueLimit = 1 << 20

    /// Hands `event` of a stream to `onEvent` on the events queue, the idle clock standing
    /// still while it waits there and runs. The future tells AsyncHTTPClient when to read on: at
    /// once while at most ``streamQueueLimit`` bytes wait for `onEvent`, else once half of them
    /// have been taken. Once the transfer is cancelled or timed out nothing more is queued.
    private func deliver(_ event: TransportStreamEvent, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let count = if case .data(let chunk) = event { chunk.count } else { 0 }
        let taken = state.withLockedValue {
            state -> (onEvent: (@Sendable (TransportStreamEvent) -> Void)?, demand: EventLoopPromise<Void>?) in
            // once stopped, nothing more is queued, nor is AsyncHTTPClient held back
            guard events != nil, let onEvent = state.onEvent, !state.isCancelled, !state.isTimedOut else {
                return (nil, nil)
            }
            state.queuedBytes += count
            // waiting for `onEvent` is the consumer's time, not the network's
            state.clock.callerStarted()
            // AsyncHTTPClient waits only while the queue is full: a failure while it waits drops
            // what it read meanwhile (so the head does not make it wait)
            guard state.queuedBytes > Self.streamQueueLimit else { return (onEvent, nil) }
            let demand = eventLoop.makePromise(of: Void.self)
            state.demand = demand
            return (onEvent, demand)
        }
        guard let events, let onEvent = taken.onEvent else { return eventLoop.makeSucceededVoidFuture() }
        events.async { [self] in
            onEvent(event)
            let now = sweeper.now()
            let resumed = state.withLockedValue { state -> EventLoopPromise<Void>? in
                state.clock.callerReturned(at: now)
                state.queuedBytes -= count
                guard state.queuedBytes <= Self.streamQueueLimit / 2 else { return nil }
                defer { state.demand = nil }
                return state.demand
            }
            resumed?.succeed(())
        }
        return taken.demand?.futureResult ?? eventLoop.makeSucceededVoidFuture()
    }

    // MARK: HTTPClientResponseDelegate, on the request's event loop

    func didSendRequestHead(task: HTTPClient.Task<TransportResponse>, _ head: HTTPRequestHead) {
        touch()
        progress?.requestHeadSent()
    }

    /// Called as each slice of the body has been written to the connection.
    func didSendRequestPart(task: HTTPClient.Task<TransportResponse>, _ part: IOData) {
        touch()
        progress?.sent(part.readableBytes)
    }

    func didVisitURL(task: HTTPClient.Task<TransportResponse>, _ request: HTTPClient.Request, _ head: HTTPResponseHead)
    {
        visits += 1
        lastVisitedURL = request.url
    }

    func didReceiveHead(task: HTTPClient.Task<TransportResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        touch()
        self.head = head
        if events != nil {
            do {
                let response = try HTTPURLResponse.make(
                    url: visits > 1 ? lastVisitedURL : requestURL, status: head.status, version: head.version,
                    headers: head.headers, requestURL: requestURL)
                streamedResponse = response
                return deliver(.response(response), on: task.eventLoop)
            } catch {
                return task.eventLoop.makeFailedFuture(error)
            }
        }
        let expected = head.headers.first(name: "content-length").flatMap { Int($0) }
        if let expected, expected > 0 {
            body.reserveCapacity(min(expected, 16 << 20))
        }
        progress?.responseHead(expectedLength: expected.map(Int64.init))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<TransportResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        touch()
        if events != nil { return deliver(.data(Data(buffer: buffer)), on: task.eventLoop) }
        body.append(contentsOf: buffer.readableBytesView)
        progress?.received(buffer.readableBytes)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<TransportResponse>) throws -> TransportResponse {
        if let streamedResponse { return TransportResponse(data: Data(), urlResponse: streamedResponse) }
        guard let head else { throw URLError(.badServerResponse, underlying: nil, url: requestURL) }
        // Without a redirect the final URL is the request's.
        let url = visits > 1 ? lastVisitedURL : requestURL
        let response = try HTTPURLResponse.make(
            url: url, status: head.status, version: head.version, headers: head.headers, requestURL: requestURL)
        return TransportResponse(data: body, urlResponse: response)
    }
}
