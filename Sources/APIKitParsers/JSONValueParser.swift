public import Foundation

/// Reads a JSON response body of any shape into a ``JSONValue``.
///
/// Use it for bodies you do not want to declare a type for, or whose shape
/// you learn only by looking at them; ``JSONValue/decode(_:decoder:)`` turns
/// a part of the result into a `Decodable` type later. For a body that must
/// be an object, ``DictionaryParser`` gives its members directly.
///
/// The parser reads bodies as ``JSONParser`` does, with a `JSONDecoder` with
/// default options: any top-level value (`42` gives ``JSONValue/integer(_:)``),
/// a leading UTF-8 byte order mark skipped, UTF-16 and UTF-32 bodies
/// recognised, at most 512 levels of nesting. It asks for
/// `application/json`. See ``JSONValue`` for how numbers are kept (integers
/// exactly, `true` never as `1`) and why objects lose their key order.
///
/// Failures are the ``ParsingError``s ``JSONParser`` throws, naming
/// `JSONValueParser`:
/// - an empty body: ``ParsingError/Reason/emptyBody``;
/// - a body that is not JSON, including bytes that are not valid Unicode
///   text and nesting deeper than 512 levels:
///   ``ParsingError/Reason/invalidJSON``, with the decoder's error as
///   ``ParsingError/underlyingError``;
/// - a number too large for a `Double`, such as `1e999`:
///   ``ParsingError/Reason/dataCorrupted`` at the number's
///   ``ParsingError/codingPath``. (``JSONParser`` reports it as
///   ``ParsingError/Reason/invalidJSON``, because `JSONDecoder` does; the
///   text is valid JSON, so this parser says what is wrong with it.)
///
/// ```swift
/// let value = try JSONValueParser().parse(data: Data(#"{"data": {"images": [{"url": "https://…"}]}}"#.utf8))
/// let url = value["data"]?["images"]?[0]?["url"]?.stringValue
/// ```
public struct JSONValueParser: Parser, Sendable {
    /// Creates a parser for JSON bodies of any shape.
    public init() {}

    /// `application/json`.
    public var contentType: String? {
        "application/json"
    }

    /// Reads the body as a JSON value.
    ///
    /// ```swift
    /// let value = try JSONValueParser().parse(data: Data("[1, true, 1.5, null]".utf8))
    /// // [.integer(1), .bool(true), .double(1.5), .null]
    /// ```
    ///
    /// - Parameter data: The response body.
    /// - Returns: The value the body holds.
    /// - Throws: A ``ParsingError`` if the body is empty, is not JSON, or
    ///   holds a number too large for a `Double`.
    public func parse(data: Data) throws -> JSONValue {
        try JSONParser<JSONValue>().decode(data, reportingAs: Self.self)
    }
}
