/// Decodes a `text/event-stream` body into ``ServerSentEvent`` values, chunk by chunk, as the
/// bytes arrive.
///
/// The decoder follows the WHATWG HTML standard's "Interpreting an event stream" algorithm:
/// the bytes are UTF-8 (invalid sequences become U+FFFD) with one leading byte order mark
/// stripped; lines end at CR, LF or CRLF; a line starting with `:` is a comment; `field: value`
/// loses one space after the colon, and a line without a colon is a field with an empty value;
/// `data` values are joined with LF, `event` sets the type (`"message"` by default), `id` sets
/// the last event ID (unless it contains NUL) and `retry` the reconnection time (only when it
/// is all ASCII digits); other fields are ignored. A blank line dispatches the event, unless no
/// `data` line came; an event that the stream ends before its blank line is discarded.
///
/// Chunks may be split anywhere — inside a line, a CRLF, a multi-byte character or the byte
/// order mark — and give the same events as the whole body read at once. Memory is bounded by
/// ``maximumEventSize``: the decoder holds one line and one event at most.
///
/// Internal: users read events through ``DecodedResponseStream/serverSentEvents`` and
/// ``DecodedResponseStream/reconnectingServerSentEvents(maximumAttempts:initialDelay:)``, which feed it each chunk:
///
/// ```swift
/// var decoder = ServerSentEventDecoder()
/// for event in try decoder.decode(Data("event: price\ndata: YHOO\ndata: +2\nid: 7\n\n".utf8)) {
///     print(event.event, event.data, event.id ?? "-")  // price YHOO\n+2 7
/// }
/// try decoder.finish()  // the stream ended; reconnect with decoder.lastEventID
/// ```
struct ServerSentEventDecoder: Sendable {
    /// The event size limit used when none is given: 1 MiB.
    @usableFromInline static let defaultMaximumEventSize = 1 << 20

    /// The most bytes one event's data and type may take together, a line end counted after
    /// each `data` line (`data: 0123` takes 5); more throws
    /// ``ResponseStreamError/eventTooLarge(limit:)``.
    ///
    /// The same limit bounds each line, since a line is held whole before it is read: a line
    /// may be 8 bytes longer (room for `event: ` or `data: `), so that every line of an event
    /// within the limit passes, and a longer one, even a comment, throws the same error.
    var maximumEventSize: Int {
        interpreter.maximumEventSize
    }

    /// The last event ID string of the WHATWG standard: the value of the latest `id` field, taken when a
    /// blank line ends its block (whether or not the block dispatched an event); `nil` when there
    /// is none or it was set to empty.
    ///
    /// A client that reconnects sends it in the `Last-Event-ID` header.
    var lastEventID: String? {
        let id = interpreter.lastEventID
        return id.isEmpty ? nil : id
    }

    /// The reconnection time in milliseconds that the latest valid `retry` field set, in any
    /// block, even one that dispatched no event; `nil` when the stream has set none.
    var reconnectionTime: Int? {
        interpreter.reconnectionTime
    }

    private var lines: LineDecoder
    private var interpreter: EventStreamInterpreter
    /// How many bytes of the byte order mark `EF BB BF` the stream has started with so far,
    /// or `nil` once the mark is stripped or known to be absent.
    private var byteOrderMarkMatched: Int? = 0
    /// An error that ``decode(_:)`` found after events it returned, thrown by the next call.
    private var unthrownFailure: ResponseStreamError?

    /// Creates a decoder at the start of a stream.
    ///
    /// ```swift
    /// var decoder = ServerSentEventDecoder(maximumEventSize: 64 * 1024)
    /// ```
    ///
    /// - Parameter maximumEventSize: The most bytes one event's data and type may take
    ///   together, a line end counted after each `data` line; lines may be 8 bytes longer. A
    ///   negative value is taken as 0.
    init(maximumEventSize: Int = defaultMaximumEventSize) {
        let limit = max(0, maximumEventSize)
        let (lineLimit, overflow) = limit.addingReportingOverflow(Self.fieldNameAllowance)
        lines = LineDecoder(maximumLineLength: overflow ? .max : lineLimit)
        interpreter = EventStreamInterpreter(maximumEventSize: limit)
    }

    /// Reads the next chunk of the stream and returns the events it completes.
    ///
    /// What a caller receives depends on the bytes alone, never on how they were split: when an
    /// event is too large, this call still returns the events completed before it, and the
    /// error is thrown by this call only if there are none; otherwise by the next call to
    /// `decode(_:)` or ``finish()``.
    ///
    /// ```swift
    /// var decoder = ServerSentEventDecoder()
    /// _ = try decoder.decode(Data("data: hel".utf8))          // []
    /// let events = try decoder.decode(Data("lo\n\n".utf8))   // [ServerSentEvent(data: "hello")]
    /// ```
    ///
    /// - Parameter chunk: The next bytes of the stream (`Data`, `[UInt8]` or any other
    ///   `ContiguousBytes`), split anywhere.
    /// - Returns: The events whose blank line is in this chunk, in order; often none.
    /// - Throws: ``ResponseStreamError/eventTooLarge(limit:)`` when an event, or a line, is
    ///   larger than ``maximumEventSize`` allows and no event comes before it in this chunk. The
    ///   decoder then throws the same error for every later chunk, until ``finish()``.
    mutating func decode(_ chunk: some ContiguousBytes) throws(ResponseStreamError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        do {
            try decode(chunk, into: &events)
        } catch {
            guard !events.isEmpty else { throw error }
            unthrownFailure = error
        }
        return events
    }

    /// Appends the events that `chunk` completes to `events`; when an event is too large, the
    /// events before it are appended before the error is thrown.
    ///
    /// - Parameters:
    ///   - chunk: The next bytes of the stream.
    ///   - events: Where the events go.
    /// - Throws: What ``decode(_:)`` throws, whatever came before it in the chunk.
    mutating func decode(_ chunk: some ContiguousBytes, into events: inout [ServerSentEvent])
        throws(ResponseStreamError)
    {
        unthrownFailure = nil
        try chunk.withBytes { bytes throws(ResponseStreamError) in
            let text = try stripByteOrderMark(bytes, into: &events)
            try decode(text, into: &events)
        }
    }

    /// Ends the stream and makes the decoder ready for the next one, such as the stream of a
    /// reconnection.
    ///
    /// As the WHATWG standard says, an event that the stream ended before its blank line is discarded, with
    /// any line that had no line end. ``lastEventID`` and ``reconnectionTime`` stay: the next
    /// stream's events carry the last event ID until it sends another, as browsers do. The next
    /// stream may start with a byte order mark again, and an earlier error is forgotten once
    /// thrown.
    ///
    /// ```swift
    /// var decoder = ServerSentEventDecoder()
    /// _ = try decoder.decode(Data("id: 1\ndata: a\n\ndata: cut off".utf8))
    /// try decoder.finish()  // "cut off" is discarded; decoder.lastEventID is "1"
    /// ```
    ///
    /// - Throws: ``ResponseStreamError/eventTooLarge(limit:)`` when the last call to
    ///   ``decode(_:)`` returned the events before an event that was too large and no call threw
    ///   that error yet. The decoder is ready for the next stream all the same.
    mutating func finish() throws(ResponseStreamError) {
        let failure = unthrownFailure
        endStream()
        if let failure { throw failure }
    }

    /// Ends the stream as ``finish()`` does, forgetting any error.
    mutating func endStream() {
        lines.reset()
        interpreter.endStream()
        byteOrderMarkMatched = 0
        unthrownFailure = nil
    }

    private mutating func decode(
        _ bytes: UnsafeRawBufferPointer,
        into events: inout [ServerSentEvent]
    ) throws(ResponseStreamError) {
        do {
            try lines.decode(bytes) { line throws(ResponseStreamError) in
                if let event = try interpreter.interpret(line) { events.append(event) }
            }
        } catch .lineTooLong {
            throw .eventTooLarge(limit: maximumEventSize)
        }
    }

    /// The part of `bytes` after the byte order mark, which may be split across the first
    /// chunks. When the stream's first bytes start the mark but then differ, those bytes are
    /// read as text first (they are not a mark, so they decode to U+FFFD).
    private mutating func stripByteOrderMark(
        _ bytes: UnsafeRawBufferPointer,
        into events: inout [ServerSentEvent]
    ) throws(ResponseStreamError) -> UnsafeRawBufferPointer {
        guard let earlier = byteOrderMarkMatched else { return bytes }
        var matched = earlier
        var offset = 0
        while matched < Self.byteOrderMark.count, offset < bytes.count, bytes[offset] == Self.byteOrderMark[matched] {
            matched += 1
            offset += 1
        }
        if matched == Self.byteOrderMark.count {
            byteOrderMarkMatched = nil
            return UnsafeRawBufferPointer(rebasing: bytes[offset...])
        }
        if offset == bytes.count {
            byteOrderMarkMatched = matched  // the chunk ended inside a possible mark
            return UnsafeRawBufferPointer(rebasing: bytes[offset...])
        }
        // Not a mark: the bytes that earlier chunks started it with are text, then all of this chunk.
        byteOrderMarkMatched = nil
        if earlier > 0 {
            try Array(Self.byteOrderMark[..<earlier]).withBytes { started throws(ResponseStreamError) in
                try decode(started, into: &events)
            }
        }
        return bytes
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// How much longer than ``maximumEventSize`` a line may be: the longest field name and
    /// its colon and space, `event: `, with a byte to spare.
    private static let fieldNameAllowance = 8
}
