/// Turns the bytes of a response body into a value.
///
/// A ``Parser`` is the last stage of a request: once the response has passed the
/// request's interceptors, its body is handed to ``parse(data:)``. The parser's
/// ``contentType`` is sent as the request's `Accept` header, unless the request
/// declares an `Accept` header of its own.
///
/// APIKit ships parsers for the common cases: ``JSONParser`` for JSON, into a
/// declared type or into ``JSONValue``; ``StringParser``,
/// ``FormURLEncodedDataParser``, ``RawDataParser`` and ``NoContentParser``.
/// Write your own by conforming to this protocol:
///
/// ```swift
/// struct LinesParser: Parser {
///     var contentType: String? { "text/plain" }
///
///     func parse(data: Data) throws -> [Substring] {
///         try StringParser().parse(data: data).split(separator: "\n")
///     }
/// }
/// ```
///
/// Parsers throw ``ParsingError`` for bodies they cannot read, so that the
/// error carries the first bytes of the body and, where there is one, the
/// decoding path; a custom parser may throw any error.
public protocol Parser {
    /// The value a parsed body becomes.
    associatedtype Object

    /// The media type this parser reads, sent as the request's `Accept` header;
    /// `nil` sends no `Accept` header. A value that is not a valid header value (one with a
    /// control character) fails every request with `BuildError.invalidHeaderValue` naming
    /// `Accept`.
    var contentType: String? { get }

    /// Parses a response body.
    ///
    /// - Parameter data: The body exactly as received; it may be empty.
    /// - Returns: The parsed value.
    /// - Throws: An error describing why the body could not be parsed, usually
    ///   a ``ParsingError``.
    func parse(data: Data) throws -> Object
}
