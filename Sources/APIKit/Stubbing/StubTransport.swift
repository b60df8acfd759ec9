/// A ``Transport`` that answers from canned responses, without a network: the way to
/// unit-test code that calls an API through APIKit.
///
/// It replaces only the sending: encoding, default headers, options, interceptors, status
/// validation, parsing, cancellation and delivery are the real pipeline, so a test sees what
/// the app will see. The closure receives every request as it would be sent, so a test can
/// also check what was sent.
///
/// ```swift
/// let stub = StubTransport { request in
///     switch request.url?.path {
///     case "/v1/user": .success(body: #"{"id": 1, "name": "Ada"}"#)
///     case "/v1/slow": .success(body: "{}", delay: 5)
///     default: .success(status: 404)
///     }
/// }
/// let session = Session(transport: stub)
/// let user = try await UserRequest(id: 1).response(using: session)
/// ```
///
/// Answers always come asynchronously, on a global queue, after the `delay:` the
/// response was made with. Cancelling the request before then stops the answer, and the
/// request reports ``RequestError/cancelled(context:)``.
///
/// A response whose `Content-Length` header promises more bytes than its body holds is a body
/// cut off, as from a server that closes the connection early: the stub sends what there is,
/// then fails with `URLError(.networkConnectionLost)`, as a real transport does (a response to
/// `HEAD`, a 1xx, 204 or 304 has no body to cut).
///
/// ```swift
/// let cutOff = StubTransport { _ in .success(headers: ["Content-Length": "10"], body: "ok") }
/// ```
public struct StubTransport: Transport {
    private let respond: @Sendable (URLRequest) -> StubResponse
    /// What the delays are measured by: the real time, unless a test drives it by hand.
    private let time: any TimeSource

    /// A transport that answers each request with what `respond` returns for it; one that
    /// ignores its argument answers every request alike.
    ///
    /// ```swift
    /// let session = Session(transport: StubTransport { _ in .success(status: 204) })
    /// ```
    ///
    /// - Parameter respond: Called once per request sent, on a global queue, with the request
    ///   as APIKit built it (headers, body, options and every interceptor applied). Its body,
    ///   in memory or streamed from disk, reads back whole with `request.requestBody?.data()`
    ///   (``RequestBody/data()``).
    public init(_ respond: @escaping @Sendable (URLRequest) -> StubResponse) {
        self.init(time: SystemTime(), respond)
    }

    /// A transport whose delays and intervals are measured by `time`: a test hook (see
    /// ``TimeSource``) for stubs that answer when a test moves its clock.
    ///
    /// - Parameters:
    ///   - time: What the delays are measured by.
    ///   - respond: As for ``init(_:)``.
    @_spi(Testing) public init(time: any TimeSource, _ respond: @escaping @Sendable (URLRequest) -> StubResponse) {
        self.respond = respond
        self.time = time
    }

    /// Answers `request` from the stub, asynchronously, reporting synthetic progress just
    /// before the answer when `progress` is given: the whole body sent, then the whole stubbed
    /// body received.
    ///
    /// The body size is that of `httpBody`, or the length of a streamed body when known (the
    /// stream is not read). A failure or a cancellation reports no progress.
    ///
    /// ```swift
    /// let session = Session(transport: StubTransport { _ in .success(body: "ok") })
    /// _ = try await request.response(using: session, progress: { print($0.bytesReceived) })   // 2
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to answer.
    ///   - progress: Receives two steps (sent, then received) before `completion`, if given.
    ///   - completion: Receives the stubbed response or error, once, on a global queue;
    ///     `URLError(.cancelled)` when the task is cancelled first.
    /// - Returns: The stubbed transfer, to cancel it.
    public func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let completion = TransferProgress.reportingEnd(of: request, to: progress, then: completion)
        let task = StubTask(completion: completion)
        DispatchQueue.global().async { [respond, time] in
            guard !task.isFinished else { return }
            let stub = respond(request)
            let result = Self.result(of: stub.answer, for: request)
            var delay = stub.delay
            if case .chunks(_, _, let chunks, let interval) = stub.answer {
                delay += interval * Double(chunks.count)
            }
            if delay > 0 {
                _ = time.schedule(after: delay) { task.complete(with: result) }
            } else {
                task.complete(with: result)
            }
        }
        return task
    }

    private static func result(
        of answer: StubResponse.Answer,
        for request: URLRequest
    ) -> Result<TransportResponse, any Error> {
        switch answer {
        case .http(let status, let headers, let body):
            if isCutOff(status, headers, length: body.count, for: request) { return .failure(cutOff) }
            return response(status: status, headers: headers, for: request).map {
                TransportResponse(data: body, urlResponse: $0)
            }
        case .chunks(let status, let headers, let chunks, _):
            let body = chunks.reduce(into: Data()) { $0.append($1) }
            if isCutOff(status, headers, length: body.count, for: request) { return .failure(cutOff) }
            return response(status: status, headers: headers, for: request).map {
                TransportResponse(data: body, urlResponse: $0)
            }
        case .failure(let error):
            return .failure(error)
        }
    }

    /// What a transport reports for a body cut off before the length its head announced.
    private static var cutOff: URLError { URLError(.networkConnectionLost) }

    /// Whether the head of a response to `request` announces more body than `length` bytes.
    private static func isCutOff(
        _ status: Int, _ headers: [String: String], length: Int, for request: URLRequest
    ) -> Bool {
        guard request.httpMethod?.uppercased() != "HEAD", status >= 200, status != 204, status != 304,
            let announced = headers.first(where: { $0.key.lowercased() == "content-length" })
                .flatMap({ Int($0.value.trimmingCharacters(in: .whitespaces)) })
        else { return false }
        return announced > length
    }

    private static func response(
        status: Int,
        headers: [String: String],
        for request: URLRequest
    ) -> Result<URLResponse, any Error> {
        guard
            let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        else {
            return .failure(URLError(.badServerResponse))
        }
        return .success(response)
    }

    /// Answers `request` from the stub as a stream, asynchronously: the response after the
    /// stub's `delay:`, then the body — each chunk of a `StubResponse.stream`
    /// `interval` seconds after the one before, any other body as one chunk — then the end, or
    /// the failure of a body cut off (as above).
    ///
    /// ```swift
    /// let stub = StubTransport { _ in .stream(chunks: ["{\"n\":1}\n", "{\"n\":2}\n"], interval: 0.1) }
    /// let task = stub.stream(URLRequest(url: url)) { event in print(event) }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to answer.
    ///   - onEvent: Receives the events on a global queue, as ``Transport/stream(_:onEvent:)``
    ///     describes; a cancellation ends them with `URLError(.cancelled)`.
    /// - Returns: The stubbed transfer, to cancel it.
    public func stream(
        _ request: URLRequest,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> any TransportTask {
        let task = StubStreamTask(onEvent: onEvent, time: time)
        DispatchQueue.global().async { [respond] in
            guard !task.isFinished else { return }
            let stub = respond(request)
            let events: [(wait: TimeInterval, event: TransportStreamEvent)]
            switch stub.answer {
            case .failure(let error):
                events = [(0, .failed(error))]
            case .http(let status, let headers, let body):
                events = Self.events(status, headers, body.isEmpty ? [] : [body], interval: 0, for: request)
            case .chunks(let status, let headers, let chunks, let interval):
                events = Self.events(status, headers, chunks, interval: interval, for: request)
            }
            task.play(events[...], after: stub.delay)
        }
        return task
    }

    /// The events of a stubbed HTTP response: the response, each chunk `interval` seconds after
    /// the one before, the end (or the cut).
    private static func events(
        _ status: Int,
        _ headers: [String: String],
        _ chunks: [Data],
        interval: TimeInterval,
        for request: URLRequest
    ) -> [(wait: TimeInterval, event: TransportStreamEvent)] {
        switch response(status: status, headers: headers, for: request) {
        case .failure(let error):
            return [(0, .failed(error))]
        case .success(let response):
            let length = chunks.reduce(0) { $0 + $1.count }
            let end: TransportStreamEvent =
                isCutOff(status, headers, length: length, for: request) ? .failed(cutOff) : .finished
            return [(0, .response(response))] + chunks.map { (interval, .data($0)) } + [(0, end)]
        }
    }
}

/// One stubbed streamed transfer: plays its events in order, each after its wait, until the
/// last or a cancellation, which ends them with `URLError(.cancelled)` instead. `onEvent` is
/// dropped with the last event, so it is called nothing after it.
private final class StubStreamTask: TransportTask {
    private let onEvent: Locked<(@Sendable (TransportStreamEvent) -> Void)?>
    /// Serializes the events of this transfer, as the rules of a transport ask.
    private let queue = DispatchQueue(label: "APIKit.StubStreamTask")
    private let time: any TimeSource

    init(onEvent: @escaping @Sendable (TransportStreamEvent) -> Void, time: any TimeSource) {
        self.onEvent = Locked(onEvent)
        self.time = time
    }

    var isFinished: Bool {
        onEvent.withLock { $0 == nil }
    }

    /// Plays `events` on the task's queue, the first after `delay` plus its own wait.
    func play(_ events: ArraySlice<(wait: TimeInterval, event: TransportStreamEvent)>, after delay: TimeInterval) {
        guard let first = events.first else { return }
        let next: @Sendable () -> Void = { [self] in
            queue.async { [self] in
                deliver(first.event)
                play(events.dropFirst(), after: 0)
            }
        }
        let wait = delay + first.wait
        if wait > 0 {
            _ = time.schedule(after: wait, next)
        } else {
            next()
        }
    }

    /// Calls `onEvent` with `event`, unless the events have ended; drops it after the last.
    private func deliver(_ event: TransportStreamEvent) {
        let isLast: Bool
        switch event {
        case .finished, .failed: isLast = true
        case .response, .data: isLast = false
        }
        // Every event is delivered on `queue`, so none can come between taking and calling.
        let handler = onEvent.withLock { onEvent in
            defer { if isLast { onEvent = nil } }
            return onEvent
        }
        handler?(event)
    }

    func cancel() {
        queue.async { [self] in
            deliver(.failed(URLError(.cancelled)))
        }
    }
}

/// One stubbed transfer: completes once, with the answer or with `URLError(.cancelled)`.
private final class StubTask: TransportTask {
    private let completion: Locked<(@Sendable (Result<TransportResponse, any Error>) -> Void)?>

    init(completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void) {
        self.completion = Locked(completion)
    }

    var isFinished: Bool {
        completion.withLock { $0 == nil }
    }

    /// Calls the completion with `result`, unless it was called already.
    func complete(with result: Result<TransportResponse, any Error>) {
        let completion = self.completion.withLock { completion in
            defer { completion = nil }
            return completion
        }
        completion?(result)
    }

    func cancel() {
        guard !isFinished else { return }
        DispatchQueue.global().async { [self] in
            complete(with: .failure(URLError(.cancelled)))
        }
    }
}
