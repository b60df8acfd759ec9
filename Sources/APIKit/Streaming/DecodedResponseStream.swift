/// A ``ResponseStream`` decoded while it arrives: lines (``ResponseStream/lines``), JSON
/// values (``ResponseStream/jsonLines(of:decoder:)``) or server-sent events
/// (``ResponseStream/serverSentEvents``, or ``ResponseStream/serverSentEvents(reconnecting:)``
/// across connections).
///
/// The same transfer rules as ``ResponseStream``: the status is checked before the first
/// element, breaking out of the loop cancels the transfer, every error is a ``RequestError``.
/// An element that does not decode — a line over its length limit, a JSON line of the wrong
/// shape, an oversized event — cancels the transfer; the elements before it are still handed
/// out, then the loop throws ``RequestError/parsingFailed(_:body:response:context:)`` carrying
/// the ``ResponseStreamError`` (its `body` is empty: the stream's bytes are not kept). What a
/// loop receives depends on the body's bytes alone, never on how the network split them.
///
/// ```swift
/// for try await line in LogRequest().stream(using: session).lines {
///     print(line)
/// }
/// ```
public struct DecodedResponseStream<Element>: AsyncSequence, Sendable {
    /// Makes the reader of one iteration: a decoder over one transfer, or the reconnecting
    /// reader of ``ResponseStream/serverSentEvents(reconnecting:)``.
    let makeReader: @Sendable () -> any ElementReader<Element>

    /// Starts an iteration; the request is sent on the first call to `next()`.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: makeReader())
    }

    /// Reads and decodes one iteration; dropping it cancels the transfer.
    public struct Iterator: AsyncIteratorProtocol {
        private var reader: any ElementReader<Element>

        init(reader: any ElementReader<Element>) {
            self.reader = reader
        }

        /// The next element, or `nil` at the end of the body.
        ///
        /// ```swift
        /// var lines = request.stream(using: session).lines.makeAsyncIterator()
        /// let first = try await lines.next()
        /// ```
        ///
        /// - Returns: The element, or `nil` when the body has ended (or an error was thrown before).
        /// - Throws: A ``RequestError``; see ``ResponseStream``.
        public mutating func next() async throws(RequestError) -> Element? {
            try await reader.next(isolation: nil)
        }

        /// The next element, or `nil` at the end of the body.
        ///
        /// ```swift
        /// for try await line in request.stream(using: session).lines { print(line) }
        /// ```
        ///
        /// - Parameter actor: The caller's actor.
        /// - Returns: The element, or `nil` when the body has ended (or an error was thrown before).
        /// - Throws: A ``RequestError``; see ``ResponseStream``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Element? {
            try await reader.next(isolation: actor)
        }

        /// The response head — status and headers — before the first element: sends the request
        /// and waits for the head, unless the iteration has done so already (with reconnecting
        /// server-sent events, the head of the connection in use).
        ///
        /// ```swift
        /// var events = request.stream(using: session).serverSentEvents.makeAsyncIterator()
        /// let head = try await events.response() as? HTTPURLResponse
        /// ```
        ///
        /// - Returns: The head the request's `intercept(urlResponse:)` accepted; `nil` once the
        ///   iteration has ended.
        /// - Throws: A ``RequestError``, as ``next()`` would for its first element.
        public mutating func response() async throws(RequestError) -> URLResponse? {
            try await reader.response()
        }
    }
}

/// What a ``DecodedResponseStream`` iteration reads its elements from. Not `Sendable`: it
/// belongs to one iterator.
protocol ElementReader<Element> {
    associatedtype Element
    /// The next element, or `nil` at the end.
    mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Element?
    /// The response head of the transfer in use, opening it when none is; `nil` at the end.
    mutating func response() async throws(RequestError) -> URLResponse?
}

/// The elements of one transfer of a ``ResponseStream``, decoded chunk by chunk.
struct DecodingReader<Element>: ElementReader {
    private var base: ResponseStream.Iterator
    private let decoder: ElementDecoder<Element>
    private var pending = PendingElements<Element>()

    init(base: ResponseStream.Iterator, decoder: ElementDecoder<Element>) {
        self.base = base
        self.decoder = decoder
    }

    mutating func response() async throws(RequestError) -> URLResponse? {
        try await base.response()
    }

    mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Element? {
        while true {
            if let element = try pending.next() { return element }
            if pending.isEnded { return nil }
            let chunk: Data?
            do {
                chunk = try await base.next(isolation: actor)
            } catch {
                pending.isEnded = true
                throw error
            }
            var decoded: [Element] = []
            do {
                if let chunk {
                    try decoder.decode(chunk, &decoded)
                } else {
                    pending.isEnded = true
                    try decoder.finish(&decoded)
                }
                pending.refill(decoded)
            } catch {
                // The elements before the one that failed are the stream's too.
                pending.refill(decoded, thenThrow: base.decodingFailed(error))
            }
        }
    }
}

/// One of the stream decoders behind a ``DecodedResponseStream``, as closures over its state;
/// each appends what it decodes to its argument before it throws. Not `Sendable`: it belongs to
/// one iterator.
final class ElementDecoder<Element> {
    let decode: (Data, inout [Element]) throws(ResponseStreamError) -> Void
    let finish: (inout [Element]) throws(ResponseStreamError) -> Void

    init(
        decode: @escaping (Data, inout [Element]) throws(ResponseStreamError) -> Void,
        finish: @escaping (inout [Element]) throws(ResponseStreamError) -> Void
    ) {
        self.decode = decode
        self.finish = finish
    }
}

extension ResponseStream {
    /// The body as lines of UTF-8 text, without their terminators (CR, LF or CRLF); the last
    /// line does not need one. A line longer than 1 MiB ends the stream with
    /// ``ResponseStreamError/lineTooLong(limit:)``.
    ///
    /// ```swift
    /// for try await line in TailRequest().stream(using: session).lines {
    ///     print(line)
    /// }
    /// ```
    public var lines: DecodedResponseStream<String> {
        decoded {
            var lines = LineDecoder()
            return ElementDecoder(
                decode: { chunk, decoded throws(ResponseStreamError) in
                    try lines.decode(chunk) { line in decoded.append(String(decoding: line, as: UTF8.self)) }
                },
                finish: { decoded throws(ResponseStreamError) in
                    try lines.finish { line in decoded.append(String(decoding: line, as: UTF8.self)) }
                })
        }
    }

    /// The body as JSON Lines (one JSON value per line, blank lines skipped), each decoded as
    /// `type`. Lines end at LF, CRLF or CR; a line that does not decode ends the stream
    /// with ``ResponseStreamError/invalidJSONLine(number:prefix:underlying:)``, one longer than
    /// 1 MiB with ``ResponseStreamError/lineTooLong(limit:)``.
    ///
    /// ```swift
    /// struct Token: Decodable { let text: String }
    /// for try await token in GenerateRequest().stream(using: session).jsonLines(of: Token.self) {
    ///     print(token.text, terminator: "")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type of each line's value.
    ///   - decoder: The decoder for each line; a plain `JSONDecoder` by default.
    /// - Returns: The decoded values, in order.
    public func jsonLines<Value: Decodable & Sendable>(
        of type: Value.Type = Value.self,
        decoder: JSONDecoder = JSONDecoder()
    ) -> DecodedResponseStream<Value> {
        let template = JSONLinesDecoder<Value>(decoder: decoder)
        return decoded {
            var values = template
            return ElementDecoder(
                decode: { chunk, decoded throws(ResponseStreamError) in try values.decode(chunk, into: &decoded) },
                finish: { decoded throws(ResponseStreamError) in try values.finish(into: &decoded) })
        }
    }

    /// The body as server-sent events, read by the WHATWG
    /// EventSource rules; an unfinished event at the end of the body is dropped, as those
    /// rules say.
    ///
    /// ```swift
    /// for try await event in EventsRequest().stream(using: session).serverSentEvents {
    ///     print(event.event, event.data)
    /// }
    /// ```
    public var serverSentEvents: DecodedResponseStream<ServerSentEvent> {
        decoded {
            var events = ServerSentEventDecoder()
            return ElementDecoder(
                decode: { chunk, decoded throws(ResponseStreamError) in try events.decode(chunk, into: &decoded) },
                finish: { _ in events.endStream() })
        }
    }

    /// This stream decoded by the decoder `makeDecoder` makes for each iteration.
    private func decoded<Element>(
        _ makeDecoder: @escaping @Sendable () -> ElementDecoder<Element>
    ) -> DecodedResponseStream<Element> {
        DecodedResponseStream { [self] in DecodingReader(base: makeAsyncIterator(), decoder: makeDecoder()) }
    }
}
