/// Thrown by the default ``Request/intercept(urlResponse:)`` for a status code outside `200..<300`.
///
/// APIKit reports it as ``RequestError/unacceptableStatusCode(_:body:response:context:)``,
/// which carries the response body as well. Throw it from your own
/// `intercept(urlResponse:)` to get the same treatment.
public struct UnacceptableStatusCode: Error, Hashable, Sendable, CustomStringConvertible {
    /// The HTTP status code received.
    public let statusCode: Int

    /// Creates the error for a status code.
    ///
    /// - Parameter statusCode: The HTTP status code received.
    public init(statusCode: Int) {
        self.statusCode = statusCode
    }

    /// A sentence naming the status code.
    public var description: String {
        "unacceptable status code \(statusCode)"
    }
}
