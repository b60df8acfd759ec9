/// What a ``Transport`` received: the response and its whole body.
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
