import Foundation

/// The reader behind ``DecodedResponseStream/reconnectingServerSentEvents(maximumAttempts:initialDelay:)``:
/// the events of one connection after another, with one ``ServerSentEventDecoder`` across
/// connections.
struct ReconnectingEventReader: ElementReader {
    private let source: ResponseStreamSource
    /// The most connections in a row that may end without an event.
    private let maximumAttempts: Int
    /// Seconds to wait before reconnecting until the server sends `retry`.
    private let initialDelay: TimeInterval
    /// Why the settings cannot be followed, when they cannot: the first read fails with it and
    /// nothing is sent.
    private let invalid: BuildError?
    private var decoder = ServerSentEventDecoder()
    /// The connection being read; `nil` between connections.
    private var connection: TransferReader?
    private var connections = 0
    private var deliveredOnConnection = false
    private var failedInARow = 0
    private var pending = PendingElements<ServerSentEvent>()

    /// A reader of the events of `source`'s connections.
    init(source: ResponseStreamSource, maximumAttempts: Int, initialDelay: TimeInterval) {
        self.source = source
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        if maximumAttempts < 1 {
            invalid = .invalidReconnection("maximumAttempts must be at least 1, not \(maximumAttempts)")
        } else if !initialDelay.isFinite || initialDelay < 0 {
            invalid = .invalidReconnection(
                "initialDelay must be a finite number of seconds, 0 or more, not \(initialDelay)")
        } else {
            invalid = nil
        }
    }

    /// Ends the reader with the settings' error, when they cannot be followed (once: the
    /// reads after it find the reader ended).
    private mutating func checkSettings() throws(RequestError) {
        guard let invalid, !pending.isEnded else { return }
        pending.isEnded = true
        throw .buildFailed(invalid, context: source.context(nil))
    }

    mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> ServerSentEvent? {
        try checkSettings()
        while true {
            if let event = try pending.next() { return event }
            if pending.isEnded { return nil }
            do {
                if connection == nil {
                    guard try await connect(isolation: actor) else { return nil }
                }
                try await read(isolation: actor)
            } catch {
                pending.isEnded = true
                connection = nil
                throw error
            }
        }
    }

    mutating func response() async throws(RequestError) -> URLResponse? {
        try checkSettings()
        while !pending.isEnded {
            if var open = connection {
                let head = try await open.response()
                connection = open
                return head
            }
            do {
                guard try await connect(isolation: nil) else { return nil }
            } catch {
                pending.isEnded = true
                throw error
            }
        }
        return nil
    }

    /// Opens the next connection, after the reconnection time unless it is the first;
    /// `false` when the server said there is no more (`204`).
    private mutating func connect(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Bool {
        if connections > 0 {
            let delay = decoder.reconnectionTime.map { TimeInterval($0) / 1000 } ?? initialDelay
            try await Self.wait(delay, on: source.time, context: source.context(nil))
        }
        connections += 1
        deliveredOnConnection = false
        var attempt = TransferReader(connection: StreamConnection(source: source, lastEventID: decoder.lastEventID))
        let response: URLResponse?
        do {
            response = try await attempt.open(isolation: actor)
        } catch {
            try connectionEnded(by: error)
            return true
        }
        let http = response as? HTTPURLResponse
        if http?.statusCode == 204 {
            pending.isEnded = true
            return false
        }
        if let contentType = http?.value(forHTTPHeaderField: "Content-Type"), !Self.isEventStream(contentType) {
            throw attempt.responseRejected(
                ResponseStreamError.unacceptableContentType(contentType, expected: "text/event-stream"))
        }
        connection = attempt
        return true
    }

    /// Reads the next chunk of the connection into `pending`; ends the connection when its
    /// body ends or its transport fails.
    private mutating func read(isolation actor: isolated (any Actor)?) async throws(RequestError) {
        guard var attempt = connection else { return }
        let chunk: Data?
        do {
            chunk = try await attempt.next(isolation: actor)
        } catch {
            connection = nil
            try connectionEnded(by: error)
            return
        }
        guard let chunk else {
            connection = nil
            try connectionEnded(by: nil)
            return
        }
        var events: [ServerSentEvent] = []
        do {
            try decoder.decode(chunk, into: &events)
        } catch {
            // The events before the one that failed are the stream's too.
            connection = nil
            pending.refill(events, thenThrow: attempt.decodingFailed(error))
            return
        }
        pending.refill(events)
        connection = attempt
        if !pending.isEmpty {
            deliveredOnConnection = true
        }
    }

    /// Takes note of a connection's end: rethrows an error that does not reconnect, and the
    /// last error once `maximumAttempts` connections in a row
    /// delivered no event. A clean end after those attempts ends the sequence.
    private mutating func connectionEnded(by error: RequestError?) throws(RequestError) {
        decoder.endStream()
        if let error, !Self.reconnects(after: error) { throw error }
        failedInARow = deliveredOnConnection ? 0 : failedInARow + 1
        guard failedInARow >= maximumAttempts else { return }
        if let error { throw error }
        pending.isEnded = true
    }

    /// Waits `delay` seconds before a reconnection; a cancelled task stops waiting.
    private static func wait(
        _ delay: TimeInterval, on time: any TimeSource, context: RequestContext
    ) async throws(RequestError) {
        do {
            try await time.sleep(for: delay)
        } catch {
            throw .cancelled(context: context)
        }
    }

    /// Whether the connection that `error` ended may be reconnected: a transport failure that
    /// is not the stream's own buffer limit.
    private static func reconnects(after error: RequestError) -> Bool {
        guard case .transportFailed(let underlying, _) = error else { return false }
        return !(underlying is ResponseStreamError)
    }

    /// Whether `contentType` is `text/event-stream`, with any parameters.
    private static func isEventStream(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
    }
}

extension DecodedResponseStream where Element == Data {
    /// The body as server-sent events that survive a dropped connection: the WHATWG
    /// EventSource reconnection model, as a browser's EventSource follows it.
    ///
    /// Each connection is one iteration of this stream (its status check, cancellation, buffer
    /// and errors), read with one event decoder across connections. When a connection ends —
    /// its body finished, or the transport failed — the sequence waits the reconnection time
    /// and sends the request again, through the same preparation, with a `Last-Event-ID` header
    /// holding the last event ID when the server sent one. An event cut off by the drop is
    /// discarded, so a server that resumes after the given ID delivers every event exactly once.
    /// The reconnection time is that of the EventSource model: the latest `retry` field the
    /// server sent, on any connection, and `initialDelay` until it sends one.
    ///
    /// - A `204 No Content` response ends the sequence normally: the server says there is no more.
    /// - A rejected status (by default, one outside `200..<300`) throws its
    ///   ``RequestError/unacceptableStatusCode(_:body:response:context:)`` and does not reconnect;
    ///   neither does an accepted response whose `Content-Type` is present and is not
    ///   `text/event-stream`: it throws ``RequestError/responseInterceptorFailed(_:body:response:context:)``
    ///   with ``ResponseStreamError/unacceptableContentType(_:expected:)``. A response without a
    ///   `Content-Type` is read as events.
    /// - Only transport failures and ends of the body reconnect. Any other error (an
    ///   interceptor's, an oversized event's, ``ResponseStreamError/bufferLimitExceeded(limit:)``)
    ///   ends the sequence with that error.
    /// - Cancelling the consuming task stops at once, during a wait too, with
    ///   ``RequestError/cancelled(context:)``; breaking out of the loop cancels the transfer.
    /// - After `maximumAttempts` connections in a row without an event, the sequence ends: it
    ///   throws the last connection's error, or ends normally when that connection's body just
    ///   ended. A connection that delivers an event resets the count.
    ///
    /// ```swift
    /// let events = FeedRequest().stream(using: session)
    ///     .reconnectingServerSentEvents(maximumAttempts: 5, initialDelay: 3)
    /// for try await event in events {
    ///     print(event.id ?? "-", event.data)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - maximumAttempts: The most connections in a row, the first one included, that may end
    ///     without delivering an event before the sequence gives up; at least 1, 5 by default.
    ///   - initialDelay: Seconds to wait before reconnecting until the server sets a reconnection
    ///     time with a `retry` field: finite and 0 or more, 3 seconds by default, as browsers use.
    /// - Returns: The events of every connection, in order, each once. With settings that cannot
    ///   be followed, its first `next()` (or `response()`) throws
    ///   ``RequestError/buildFailed(_:context:)`` with ``BuildError/invalidReconnection(_:)``,
    ///   and nothing is sent.
    public func reconnectingServerSentEvents(
        maximumAttempts: Int = 5,
        initialDelay: TimeInterval = 3
    ) -> DecodedResponseStream<ServerSentEvent> {
        DecodedResponseStream<ServerSentEvent>(source: source) { source in
            ReconnectingEventReader(source: source, maximumAttempts: maximumAttempts, initialDelay: initialDelay)
        }
    }
}
