/// Parses responses that carry no content, such as `204 No Content`, into
/// ``NoContent``.
///
/// The parser accepts any body: if the response has one anyway, it is
/// discarded without being read. It sends no `Accept` header.
///
/// ```swift
/// let parser = NoContentParser()
/// let result = parser.parse(data: Data())  // the body of a 204 response
/// // result == NoContent()
/// ```
public struct NoContentParser: Parser, Sendable {
    /// Creates a parser for responses without content.
    public init() {}

    /// `nil`: the parser sends no `Accept` header.
    public var contentType: String? {
        nil
    }

    /// Returns ``NoContent``, discarding the body if there is one.
    ///
    /// ```swift
    /// let result = NoContentParser().parse(data: Data("ignored".utf8))
    /// // result == NoContent()
    /// ```
    ///
    /// - Parameter data: The response body; it is ignored.
    /// - Returns: ``NoContent``.
    public func parse(data: Data) -> NoContent {
        NoContent()
    }
}
