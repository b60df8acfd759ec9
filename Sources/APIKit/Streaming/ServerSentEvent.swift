/// One event of a `text/event-stream` response, as the WHATWG HTML standard's EventSource
/// would dispatch it.
///
/// ``DecodedResponseStream/serverSentEvents`` makes one from each block of `field: value` lines that ends
/// with a blank line and holds at least one `data` line. Its properties are the standard's
/// `MessageEvent` attributes: the event type, the data, the last event ID, and the
/// reconnection time when the block set one.
///
/// ```swift
/// // event: price
/// // data: YHOO
/// // data: +2
/// // id: 7
/// // retry: 5000
/// //
/// let price = ServerSentEvent(event: "price", data: "YHOO\n+2", id: "7", retry: 5000)
///
/// // data: hello
/// //
/// let hello = ServerSentEvent(data: "hello")  // event "message", no id, no retry
/// ```
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type: the block's last `event` field, or `"message"` when it had none or an
    /// empty one.
    public var event: String

    /// The values of the block's `data` lines, joined with LF (`"\n"`), without a final LF.
    public var data: String

    /// The last event ID in effect when the event was dispatched: the value of the last `id`
    /// field of this block or of an earlier one, which persists from event to event; `nil` when
    /// no `id` field has been seen or the last one was empty.
    ///
    /// A client that reconnects sends it back in the `Last-Event-ID` header.
    public var id: String?

    /// The reconnection time in milliseconds that this event's block set with a `retry` field,
    /// or `nil` when it set none. A reconnecting stream
    /// (``DecodedResponseStream/reconnectingServerSentEvents(maximumAttempts:initialDelay:)``) waits the latest value,
    /// including one from a block that dispatched no event.
    public var retry: Int?

    /// Creates an event, as a decoder would dispatch it or as a stub for tests.
    ///
    /// ```swift
    /// let event = ServerSentEvent(event: "update", data: #"{"id":1}"#, id: "42")
    /// ```
    ///
    /// - Parameters:
    ///   - event: The event type; `"message"` unless the stream named another.
    ///   - data: The event's data, its lines joined with LF.
    ///   - id: The last event ID in effect, or `nil` for none.
    ///   - retry: The reconnection time in milliseconds that the event's block set, if any.
    public init(event: String = "message", data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}
