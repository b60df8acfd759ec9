/// The decoder of every ``JSONParser`` made without one. Its options are never changed, and
/// `JSONDecoder.decode` may be called from several threads at once.
@usableFromInline let defaultJSONDecoder = JSONDecoder()

/// Decodes a JSON response body into a `Decodable` value.
///
/// `JSONParser` hands the body to a `JSONDecoder` as it is, without copying it
/// or looking at it first, apart from rejecting an empty body. It asks for
/// `application/json`.
///
/// Any JSON value can be the top level, including a bare string or number,
/// so `JSONParser<String>` reads `"abc"` and `JSONParser<Int>` reads `42`.
/// A body with no type worth declaring reads as a ``JSONValue``:
/// `JSONParser<JSONValue>` takes any JSON, and `JSONParser<[String: JSONValue]>`
/// a body that must be an object (any other top level is a
/// ``ParsingError/Reason/typeMismatch(expected:)``).
///
/// Failures become a ``ParsingError``:
/// - an empty body: ``ParsingError/Reason/emptyBody``, without calling the
///   decoder;
/// - a body that is not JSON: ``ParsingError/Reason/invalidJSON``;
/// - a body whose shape does not match `Object`:
///   ``ParsingError/Reason/typeMismatch(expected:)``,
///   ``ParsingError/Reason/valueNotFound(expected:)``,
///   ``ParsingError/Reason/keyNotFound(_:)`` or
///   ``ParsingError/Reason/dataCorrupted``, with the
///   ``ParsingError/codingPath`` of the offending value and the original
///   `DecodingError` as ``ParsingError/underlyingError``.
///
/// Errors other than `DecodingError` that your types' `init(from:)` throw
/// pass through unchanged.
///
/// ```swift
/// struct User: Decodable {
///     let id: Int
///     let displayName: String
/// }
///
/// let decoder = JSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let parser = JSONParser<User>(decoder: decoder)
/// let user = try parser.parse(data: Data(#"{"id": 1, "display_name": "Ada"}"#.utf8))
/// ```
public struct JSONParser<Object: Decodable>: Parser, Sendable {
    // `JSONDecoder` is `Sendable` (`@unchecked Sendable` in Foundation, which
    // documents `decode` as safe to call concurrently), so it is stored as is.
    private let decoder: JSONDecoder

    /// Creates a parser that decodes with `decoder`, or with a `JSONDecoder` with default
    /// options.
    ///
    /// Without an argument, all parsers share one decoder, which nothing can change: a
    /// request's `parser` (APIKit's `Request.parser`) is made each time it is asked for (for
    /// the `Accept` header as well as for the response), and making a `JSONDecoder` each time
    /// cost more than a tenth of building a small request.
    ///
    /// The parser keeps a reference to a `decoder` you give; configure it before creating the
    /// parser and do not change it afterwards, as a change would affect requests already under
    /// way.
    ///
    /// ```swift
    /// let plain = JSONParser<User>()
    /// let decoder = JSONDecoder()
    /// decoder.dateDecodingStrategy = .secondsSince1970
    /// let dated = JSONParser<Event>(decoder: decoder)
    /// ```
    ///
    /// - Parameter decoder: The decoder to use; the shared default one when omitted.
    public init(decoder: JSONDecoder = defaultJSONDecoder) {
        self.decoder = decoder
    }

    /// `application/json`.
    public var contentType: String? {
        "application/json"
    }

    /// Decodes the body as JSON into an `Object`.
    ///
    /// ```swift
    /// let names = try JSONParser<[String]>().parse(data: Data(#"["a", "b"]"#.utf8))
    /// ```
    ///
    /// - Parameter data: The response body.
    /// - Returns: The decoded value.
    /// - Throws: A ``ParsingError`` if the body is empty, is not JSON, or does
    ///   not match `Object`; any other error that `Object`'s `init(from:)`
    ///   throws, unchanged.
    public func parse(data: Data) throws -> Object {
        guard !data.isEmpty else {
            throw ParsingError(.emptyBody, parser: Self.self, body: data)
        }
        do {
            return try decoder.decode(Object.self, from: data)
        } catch let error as DecodingError {
            throw Self.parsingError(for: error, body: data)
        }
    }

    /// Translates a `DecodingError` into a ``ParsingError`` that keeps its
    /// coding path and wraps it.
    ///
    /// - Parameters:
    ///   - error: The error the decoder threw.
    ///   - body: The body being decoded.
    /// - Returns: The corresponding parsing error.
    static func parsingError(for error: DecodingError, body: Data) -> ParsingError {
        let reason: ParsingError.Reason
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(let type, let errorContext):
            reason = .typeMismatch(expected: String(describing: type))
            context = errorContext
        case .valueNotFound(let type, let errorContext):
            reason = .valueNotFound(expected: String(describing: type))
            context = errorContext
        case .keyNotFound(let key, let errorContext):
            reason = .keyNotFound(key.stringValue)
            context = errorContext
        case .dataCorrupted(let errorContext):
            reason = isSyntaxError(errorContext) ? .invalidJSON : .dataCorrupted
            context = errorContext
        @unknown default:
            return ParsingError(.dataCorrupted, parser: Self.self, body: body, underlyingError: error)
        }
        return ParsingError(
            reason,
            parser: Self.self,
            codingPath: ParsingError.codingPath(from: context.codingPath),
            body: body,
            underlyingError: error
        )
    }

    /// Whether a `dataCorrupted` context describes a body that is not JSON at
    /// all, rather than a JSON value that a type rejected.
    ///
    /// `JSONDecoder` reports syntax errors at the root, with the message
    /// "The given data was not valid JSON."; on Apple platforms it also
    /// attaches an `NSCocoaErrorDomain` error with code 3840
    /// (`NSPropertyListReadCorruptError`), while swift-foundation elsewhere
    /// attaches none. A type that rejects a top-level value also reports at
    /// the root, so the root alone is not enough.
    ///
    /// - Parameter context: The context of a `dataCorrupted` error.
    /// - Returns: `true` for a JSON syntax error.
    static func isSyntaxError(_ context: DecodingError.Context) -> Bool {
        guard context.codingPath.isEmpty else {
            return false
        }
        if context.debugDescription == "The given data was not valid JSON." {
            return true
        }
        if let underlying = context.underlyingError {
            let error = underlying as NSError
            return error.domain == NSCocoaErrorDomain && error.code == 3840
        }
        return false
    }
}
