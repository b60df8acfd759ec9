import Foundation

/// The reader behind ``ResponseStream/serverSentEvents(reconnecting:)``: the events of one
/// connection after another, with one ``ServerSentEventDecoder`` across connections.
struct ReconnectingEventReader: ElementReader {
    private let base: ResponseStream
    private let reconnection: ServerSentEventReconnection
    private var decoder = ServerSentEventDecoder()
    /// The connection being read; `nil` between connections.
    private var connection: ResponseStream.Iterator?
    private var connections = 0
    private var deliveredOnConnection = false
    private var failedInARow = 0
    private var pending = PendingElements<ServerSentEvent>()

    init(base: ResponseStream, reconnection: ServerSentEventReconnection) {
        self.base = base
        self.reconnection = reconnection
    }

    mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> ServerSentEvent? {
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
            let delay = decoder.reconnectionTime.map { TimeInterval($0) / 1000 } ?? reconnection.initialDelay
            try await Self.wait(delay, on: base.source.time, context: base.source.context(nil))
        }
        connections += 1
        deliveredOnConnection = false
        var attempt = ResponseStream(source: base.source, lastEventID: decoder.lastEventID).makeAsyncIterator()
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
    /// last error once ``ServerSentEventReconnection/maximumAttempts`` connections in a row
    /// delivered no event. A clean end after those attempts ends the sequence.
    private mutating func connectionEnded(by error: RequestError?) throws(RequestError) {
        decoder.endStream()
        if let error, !Self.reconnects(after: error) { throw error }
        failedInARow = deliveredOnConnection ? 0 : failedInARow + 1
        guard failedInARow >= reconnection.maximumAttempts else { return }
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

extension ResponseStream {
    /// The body as server-sent events that survive a dropped connection: the WHATWG
    /// EventSource reconnection model, as a browser's EventSource follows it.
    ///
    /// Each connection is one iteration of this stream (its status check, cancellation, buffer
    /// and errors), read with one event decoder across connections. When a
    /// connection ends — its body finished, or the transport failed — the sequence waits the
    /// reconnection time (the latest `retry` the server sent, else the policy's
    /// ``ServerSentEventReconnection/initialDelay``) and sends the request again, through the
    /// same preparation, with a `Last-Event-ID` header holding the last event ID when the server
    /// sent one. An event cut off by the drop is discarded, so a server that resumes after the
    /// given ID delivers every event exactly once.
    ///
    /// - A `204 No Content` response ends the sequence normally: the server says there is no more.
    /// - A rejected status (by default, one outside `200..<300`) throws its
    ///   ``RequestError/unacceptableStatusCode(_:body:response:context:)`` and does not reconnect;
    ///   neither does an accepted response whose `Content-Type` is present and is not
    ///   `text/event-stream`: it throws ``RequestError/responseInterceptorFailed(_:body:response:context:)``
    ///   with ``ResponseStreamError/unacceptableContentType(_:expected:)``. A response without a `Content-Type` is read as events.
    /// - Only transport failures and ends of the body reconnect. Any other error (an
    ///   interceptor's, an oversized event's, ``ResponseStreamError/bufferLimitExceeded(limit:)``)
    ///   ends the sequence with that error.
    /// - Cancelling the consuming task stops at once, during a wait too, with
    ///   ``RequestError/cancelled(context:)``; breaking out of the loop cancels the transfer.
    /// - After ``ServerSentEventReconnection/maximumAttempts`` connections in a row without an
    ///   event, the sequence ends: it throws the last connection's error, or ends normally when
    ///   that connection's body just ended.
    ///
    /// ```swift
    /// let events = FeedRequest().stream(using: session)
    ///     .serverSentEvents(reconnecting: .init(maximumAttempts: 5, initialDelay: 3))
    /// for try await event in events {
    ///     print(event.id ?? "-", event.data)
    /// }
    /// ```
    ///
    /// - Parameter reconnection: How long to wait before reconnecting and how many connections
    ///   in a row may fail; 5 attempts and 3 seconds by default.
    /// - Returns: The events of every connection, in order, each once.
    public func serverSentEvents(
        reconnecting reconnection: ServerSentEventReconnection = ServerSentEventReconnection()
    ) -> DecodedResponseStream<ServerSentEvent> {
        DecodedResponseStream { [self] in ReconnectingEventReader(base: self, reconnection: reconnection) }
    }
}
