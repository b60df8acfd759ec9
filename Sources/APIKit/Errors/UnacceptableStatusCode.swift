/// Thrown by ``Request/validateStatusCode(of:acceptable:)`` (which the default
/// ``Request/intercept(urlResponse:)`` calls) for a status code outside the acceptable range.
///
/// The pipeline reports it as ``RequestError/unacceptableStatusCode(_:body:response:context:)``,
/// which carries the response body as well; users see only that case. A hook of the user's
/// calls `validateStatusCode(of:acceptable:)` to get the same treatment.
struct UnacceptableStatusCode: Error, Hashable, Sendable, CustomStringConvertible {
    /// The HTTP status code received.
    let statusCode: Int

    init(statusCode: Int) {
        self.statusCode = statusCode
    }

    /// A sentence naming the status code.
    var description: String {
        "unacceptable status code \(statusCode)"
    }
}
