/// What a ``Transport`` reports about a streamed transfer (see
/// ``Transport/stream(_:onEvent:)`` for the order).
///
/// ```swift
/// onEvent(.response(httpResponse))
/// onEvent(.data(Data("data: hello\n\n".utf8)))
/// onEvent(.finished)
/// ```
public enum TransportStreamEvent: Sendable {
    /// The response head arrived: status and headers.
    case response(URLResponse)
    /// The next chunk of the body.
    case data(Data)
    /// The body ended normally.
    case finished
    /// The transfer stopped on an error (a `URLError` where one fits).
    case failed(any Error)
}
