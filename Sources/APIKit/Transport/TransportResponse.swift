/// What a ``Transport`` received: the response and its whole body.
///
/// A transport's ``Transport/send(_:progress:completion:)`` completes with one; the pipeline
/// then runs the status check, the response hooks and the parser on it. A transport of your own
/// gives the `HTTPURLResponse` it built from the engine's head.
///
/// ```swift
/// let url = URL(string: "https://api.example.com/ping")!
/// let head = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
/// let response = TransportResponse(data: Data("ok".utf8), urlResponse: head)
/// ```
public struct TransportResponse: Sendable {
    /// The body, empty when there was none.
    public var data: Data
    /// The response; an `HTTPURLResponse` for HTTP.
    public var urlResponse: URLResponse

    /// Creates a transport response from a body and the response it came with.
    ///
    /// - Parameters:
    ///   - data: The body, empty when there was none.
    ///   - urlResponse: The response; an `HTTPURLResponse` for HTTP.
    public init(data: Data, urlResponse: URLResponse) {
        self.data = data
        self.urlResponse = urlResponse
    }
}
