/// Any JSON value, for bodies you do not want to declare a type for.
///
/// A `JSONValue` is a plain `Sendable` value: it can be stored in a
/// `Sendable` type, passed between tasks and compared, which the
/// `[String: Any]` of `JSONSerialization` cannot. It is `Decodable`: read one
/// with ``JSONParser`` — `JSONParser<JSONValue>` for any top-level value,
/// `JSONParser<[String: JSONValue]>` for a body that must be an object —
/// navigate it by key and index, and read its leaves with the typed
/// accessors, or turn it into a `Decodable` type with ``decode(_:decoder:)``
/// once you know its shape:
///
/// ```swift
/// let value = try JSONParser<JSONValue>().parse(data: Data(#"{"user": {"id": 7, "tags": ["a", "b"]}}"#.utf8))
/// let tag = value["user"]?["tags"]?[0]?.stringValue  // "a"
/// let id = value["user"]?["id"]?.intValue            // 7
/// let missing = value["user"]?["missing"]?[3]        // nil, never a trap
/// ```
///
/// ## Numbers
///
/// JSON has one kind of number; `JSONValue` keeps two, so that integers stay
/// exact:
/// - ``integer(_:)`` holds every number `JSONDecoder` reads exactly as an
///   `Int64`: `42`, `-9223372036854775808`, `9007199254740993` (which a
///   `Double` would round). `JSONDecoder` also reads `1.0` and `1e2` this
///   way, as `1` and `100`: they are the same numbers. So are `-0.0`, and a
///   number too small for a `Double` such as `1e-999`: both read as `0`.
/// - ``double(_:)`` holds the rest: numbers with a fractional part, such as
///   `0.5`, and integers beyond `Int64`, such as `18446744073709551615`,
///   which become the nearest `Double`. Decode a declared type with
///   ``JSONParser`` when such integers must stay exact.
///
/// The two cases compare by the number they hold, so `.integer(1)` equals
/// `.double(1.0)` and both hash alike. The number's original text is not
/// kept: Foundation's decoders do not expose it, and keeping it would mean a
/// second JSON parser in APIKit.
///
/// `true` and `1` stay distinct: ``bool(_:)`` is only ever `true` or
/// `false` in the body, never a number (unlike `JSONSerialization` on Linux,
/// whose `NSNumber` answers `as? Bool` for `1`).
///
/// ## Objects
///
/// An ``object(_:)`` is a `[String: JSONValue]`, so it does **not** keep the
/// order of its keys: Foundation's decoders do not report it either. Two
/// objects are equal when they hold the same keys with equal values, as in
/// JSON. When a body repeats a key, `JSONDecoder` keeps one of its values
/// (on Linux, the first). ``description`` prints keys sorted, so that the
/// text is the same on every run.
@frozen
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number that is exactly an `Int64`, such as `42` or `-7`.
    case integer(Int64)
    /// Any other number, such as `0.5`, or an integer beyond `Int64`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array, in the body's order.
    case array([JSONValue])
    /// An object; it does not keep the order of its keys.
    case object([String: JSONValue])
}

extension JSONValue: Hashable {
    /// Whether two values are the same JSON value; numbers compare by the
    /// number they hold, so `.integer(1) == .double(1.0)`.
    ///
    /// ```swift
    /// print(JSONValue.integer(1) == .double(1.0))  // true
    /// print(JSONValue.integer(1) == .bool(true))   // false
    /// ```
    ///
    /// - Parameters:
    ///   - lhs: A value.
    ///   - rhs: Another value.
    /// - Returns: `true` if the two values are equal.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            true
        case (.bool(let left), .bool(let right)):
            left == right
        case (.integer(let left), .integer(let right)):
            left == right
        case (.double(let left), .double(let right)):
            left == right
        case (.integer(let integer), .double(let double)), (.double(let double), .integer(let integer)):
            Int64(exactly: double) == integer
        case (.string(let left), .string(let right)):
            left == right
        case (.array(let left), .array(let right)):
            left == right
        case (.object(let left), .object(let right)):
            left == right
        default:
            false
        }
    }

    /// Hashes the value; a `Double` that is exactly an `Int64` hashes as that
    /// integer, so that equal numbers hash alike.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .integer(let value):
            hasher.combine(2)
            hasher.combine(value)
        case .double(let value):
            if let integer = Int64(exactly: value) {
                hasher.combine(2)
                hasher.combine(integer)
            } else {
                hasher.combine(3)
                hasher.combine(value)
            }
        case .string(let value):
            hasher.combine(4)
            hasher.combine(value)
        case .array(let value):
            hasher.combine(5)
            hasher.combine(value)
        case .object(let value):
            hasher.combine(6)
            hasher.combine(value)
        }
    }
}
