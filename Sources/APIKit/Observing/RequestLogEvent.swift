/// One line of a ``RequestLogger``: a request about to be sent, or what came back for it.
///
/// ```swift
/// let logger = RequestLogger { event in
///     switch event {
///     case .request(let request): print(request.curlCommand)
///     case .response(let response): print(response)
///     }
/// }
/// ```
public enum RequestLogEvent: Sendable, Hashable, CustomStringConvertible {
    /// A request, just before the transport sends it.
    case request(LoggedRequest)
    /// The response or the transport error for a request.
    case response(LoggedResponse)

    /// The request's or the response's description.
    public var description: String {
        switch self {
        case .request(let request): request.description
        case .response(let response): response.description
        }
    }
}
