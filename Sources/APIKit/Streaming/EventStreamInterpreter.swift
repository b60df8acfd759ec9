/// The line-by-line half of the WHATWG HTML "Interpreting an event stream" algorithm: the
/// data, event type and last event ID buffers, the field rules, and dispatch on a blank line.
///
/// It reads one line at a time, as bytes without the terminator, after ``LineDecoder`` has
/// split the stream and ``ServerSentEventDecoder`` has stripped the BOM. UTF-8 is decoded here,
/// invalid sequences becoming U+FFFD: since CR, LF and `:` are ASCII bytes, which never occur
/// inside a multi-byte sequence and always end an invalid one, decoding each field name and
/// value on its own gives the same text as decoding the whole stream first. The data and event
/// type buffers hold bytes, decoded once when the event is dispatched.
///
/// ```swift
/// var interpreter = EventStreamInterpreter(maximumEventSize: 1 << 20)
/// for line in ["data: a", "data: b", ""] {
///     let event = try Array(line.utf8).withUnsafeBufferPointer { try interpreter.interpret($0) }
///     print(event as Any)  // nil, nil, ServerSentEvent(event: "message", data: "a\nb", ...)
/// }
/// ```
struct EventStreamInterpreter: Sendable {
    /// The most bytes the data and event type buffers may hold together.
    let maximumEventSize: Int

    /// The spec's data buffer: each `data` value followed by LF.
    private var data: [UInt8] = []
    /// The spec's event type buffer.
    private var eventType: [UInt8] = []
    /// The spec's last event ID buffer, which persists from block to block.
    private(set) var lastEventIDBuffer = ""
    /// The spec's "last event ID string", set from the buffer on every blank line.
    private(set) var lastEventID = ""
    /// The reconnection time set by a `retry` field of the current block.
    private var blockRetry: Int?
    /// The latest reconnection time set by a `retry` field, in any block.
    private(set) var reconnectionTime: Int?

    /// Creates an interpreter at the start of a stream.
    ///
    /// - Parameter maximumEventSize: The most bytes an event's data and type may take together,
    ///   a line end counted after each `data` line.
    init(maximumEventSize: Int) {
        self.maximumEventSize = maximumEventSize
    }

    /// Processes one line, and returns the event a blank line dispatches.
    ///
    /// - Parameter line: The line's bytes, without the terminator.
    /// - Returns: The dispatched event, when the line is blank and the data buffer is not empty.
    /// - Throws: ``ResponseStreamError/eventTooLarge(limit:)`` when the event's data and type
    ///   would exceed ``maximumEventSize``.
    mutating func interpret(_ line: UnsafeBufferPointer<UInt8>) throws(ResponseStreamError) -> ServerSentEvent? {
        guard let first = line.first else { return dispatch() }
        if first == Self.colon { return nil }  // a comment
        guard let colon = line.firstIndex(of: Self.colon) else {
            try process(field: line, value: UnsafeBufferPointer(rebasing: line[line.endIndex...]))
            return nil
        }
        var valueStart = colon + 1
        if valueStart < line.endIndex, line[valueStart] == Self.space { valueStart += 1 }
        try process(
            field: UnsafeBufferPointer(rebasing: line[..<colon]),
            value: UnsafeBufferPointer(rebasing: line[valueStart...])
        )
        return nil
    }

    /// Ends the stream: the incomplete block is discarded, as the WHATWG standard says, and the last event
    /// ID buffer goes back to the last event ID string, so that a `id` field of the discarded
    /// block is forgotten too. The last event ID string and the reconnection time stay for the
    /// stream of a reconnection, which starts with them as browsers' EventSource does.
    mutating func endStream() {
        discardBlock()
        lastEventIDBuffer = lastEventID
    }

    private mutating func discardBlock() {
        data.removeAll(keepingCapacity: data.capacity <= Self.keptCapacity)
        eventType = []
        blockRetry = nil
    }

    /// The spec's "process the field" step; unknown fields are ignored.
    private mutating func process(
        field: UnsafeBufferPointer<UInt8>,
        value: UnsafeBufferPointer<UInt8>
    ) throws(ResponseStreamError) {
        if Self.equals(field, "data") {
            guard data.count + value.count + 1 + eventType.count <= maximumEventSize else {
                throw .eventTooLarge(limit: maximumEventSize)
            }
            data.append(contentsOf: value)
            data.append(Self.lineFeed)
        } else if Self.equals(field, "event") {
            guard data.count + value.count <= maximumEventSize else {
                throw .eventTooLarge(limit: maximumEventSize)
            }
            eventType.removeAll(keepingCapacity: true)
            eventType.append(contentsOf: value)
        } else if Self.equals(field, "id") {
            if !value.contains(0) {
                lastEventIDBuffer = String(decoding: value, as: UTF8.self)
            }
        } else if Self.equals(field, "retry") {
            if let milliseconds = Self.asciiDigits(value) {
                blockRetry = milliseconds
                reconnectionTime = milliseconds
            }
        }
    }

    /// The spec's "dispatch the event" step, on a blank line.
    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = lastEventIDBuffer
        defer { discardBlock() }
        guard !data.isEmpty else { return nil }
        data.removeLast()  // the LF after the last data line
        return ServerSentEvent(
            event: eventType.isEmpty ? "message" : String(decoding: eventType, as: UTF8.self),
            data: String(decoding: data, as: UTF8.self),
            id: lastEventID.isEmpty ? nil : lastEventID,
            retry: blockRetry
        )
    }

    /// The value of a `retry` field: one or more ASCII digits as a base-ten integer; `nil`
    /// (the field is ignored) for anything else, including an empty value and a number too
    /// large for `Int`.
    private static func asciiDigits(_ value: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !value.isEmpty else { return nil }
        var result = 0
        for byte in value {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (shifted, overflowShift) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflowAdd) = shifted.addingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
            guard !overflowShift, !overflowAdd else { return nil }
            result = sum
        }
        return result
    }

    /// Whether a field name's bytes are exactly `name`, compared case-sensitively as the WHATWG standard does.
    @inline(__always)
    private static func equals(_ field: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        field.count == name.utf8CodeUnitCount
            && (field.isEmpty || memcmp(field.baseAddress!, name.utf8Start, field.count) == 0)
    }

    /// The largest data buffer kept from one event to the next: 64 KiB.
    private static let keptCapacity = 1 << 16
    private static let colon = UInt8(ascii: ":")
    private static let space = UInt8(ascii: " ")
    private static let lineFeed = UInt8(ascii: "\n")
}
