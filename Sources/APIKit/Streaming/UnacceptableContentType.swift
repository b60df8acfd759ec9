/// Thrown by ``ResponseStream/serverSentEvents(reconnecting:)`` for an accepted response whose
/// `Content-Type` is not `text/event-stream`: the stream is failed without reconnecting, as
/// EventSource does.
///
/// APIKit reports it as ``RequestError/responseInterceptorFailed(_:body:response:context:)``
/// (an empty body: the stream's bytes are not read).
///
/// ```swift
/// do {
///     for try await event in FeedRequest().stream(using: session).serverSentEvents(reconnecting: .init()) {
///         print(event.data)
///     }
/// } catch {
///     if let mismatch = error.underlyingError as? UnacceptableContentType {
///         print("not an event stream:", mismatch.contentType)
///     }
/// }
/// ```
public struct UnacceptableContentType: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `Content-Type` the response declared.
    public let contentType: String
    /// The media type that was expected, such as `text/event-stream`.
    public let expected: String

    init(contentType: String, expected: String) {
        self.contentType = contentType
        self.expected = expected
    }

    /// A sentence naming both types, for example `unacceptable content type application/json
    /// (expected text/event-stream)`.
    public var description: String {
        "unacceptable content type \(contentType) (expected \(expected))"
    }
}
