public import Foundation

/// Reads a JSON response body that must be an object into its members.
///
/// This is the `DictionaryParser` of the Endpoints library, in Swift 6
/// shape. There it was `DictionaryParser<String, Any>`, giving the
/// `[String: Any]` of `JSONSerialization`; here it is not generic and gives
/// `[String: JSONValue]`, because:
/// - `[String: Any]` is not `Sendable`, so under Swift 6's checking it
///   cannot be kept in a `Sendable` type or handed to another task, and
///   requests are performed on other tasks;
/// - `Any` hides what the body held: on Linux, `JSONSerialization`'s
///   `NSNumber` for `1` answers `as? Bool` with `true`, and a large integer
///   arrives as an `NSDecimalNumber` that `as? Int` rejects. ``JSONValue``
///   keeps `true`, `1` and `1.5` apart and integers exact.
///
/// Code written against the old parser changes little:
/// `json["user"] as? [String: Any]` becomes `json["user"]?.objectValue`, and
/// `json["id"] as? Int` becomes `json["id"]?.intValue`. A dictionary whose
/// values share one `Decodable` type is ``JSONParser``'s job:
/// `JSONParser<[String: Price]>`.
///
/// The body is read as ``JSONValueParser`` reads it, with the same errors.
/// A top-level value that is not an object, such as `[1, 2]` or `42`, is
/// ``ParsingError/Reason/typeMismatch(expected:)`` and `null` is
/// ``ParsingError/Reason/valueNotFound(expected:)``, both expecting
/// `"Dictionary<String, Any>"` as `JSONDecoder` names the object it wanted.
/// The parser asks for `application/json`.
///
/// ```swift
/// let json = try DictionaryParser().parse(data: Data(#"{"data": {"id": "abc", "rating": "g"}}"#.utf8))
/// let id = json["data"]?["id"]?.stringValue   // "abc"
/// ```
public struct DictionaryParser: Parser, Sendable {
    /// Creates a parser for JSON bodies that are objects.
    public init() {}

    /// `application/json`.
    public var contentType: String? {
        "application/json"
    }

    /// Reads the body as a JSON object.
    ///
    /// ```swift
    /// let members = try DictionaryParser().parse(data: Data(#"{"a": 1, "b": [true]}"#.utf8))
    /// // ["a": .integer(1), "b": .array([.bool(true)])]
    /// ```
    ///
    /// - Parameter data: The response body.
    /// - Returns: The object's members; their order is not kept.
    /// - Throws: A ``ParsingError`` if the body is empty, is not JSON, holds
    ///   a number too large for a `Double`, or is not an object
    ///   (``ParsingError/Reason/typeMismatch(expected:)``, or
    ///   ``ParsingError/Reason/valueNotFound(expected:)`` for `null`).
    public func parse(data: Data) throws -> [String: JSONValue] {
        try JSONParser<[String: JSONValue]>().decode(data, reportingAs: Self.self)
    }
}
