extension JSONValue {
    /// The member of an object with the given key; `nil` if the value is not
    /// an object or has no such key.
    ///
    /// Chain it with optional chaining; a missing step gives `nil`, never a
    /// trap:
    ///
    /// ```swift
    /// let value: JSONValue = ["user": ["tags": ["a", "b"]]]
    /// let tag = value["user"]?["tags"]?[1]   // "b"
    /// let name = value["user"]?["name"]       // nil
    /// let first = value["user"]?[0]           // nil: "user" is an object
    /// ```
    ///
    /// A member whose value is `null` gives ``null``, not `nil`, so the two
    /// cases stay apart.
    ///
    /// - Parameter key: The member's key.
    /// - Returns: The member's value, or `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else {
            return nil
        }
        return object[key]
    }

    /// The element of an array at the given position; `nil` if the value is
    /// not an array or the position is out of bounds, negative ones included.
    ///
    /// ```swift
    /// let value: JSONValue = [10, 20]
    /// let second = value[1]    // 20
    /// let third = value[2]     // nil
    /// let last = value[-1]     // nil
    /// ```
    ///
    /// - Parameter index: The element's position, from 0.
    /// - Returns: The element, or `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else {
            return nil
        }
        return array[index]
    }

    /// The string, if the value is a string.
    ///
    /// Numbers and booleans are not converted: `JSONValue.integer(1).stringValue`
    /// is `nil`.
    public var stringValue: String? {
        guard case .string(let value) = self else {
            return nil
        }
        return value
    }

    /// The number as an `Int`, if the value is a number that is exactly an
    /// `Int`.
    ///
    /// `.integer(7)` and `.double(7.0)` give `7`; `.double(7.5)`, a number
    /// beyond `Int` and `.bool(true)` give `nil`.
    public var intValue: Int? {
        switch self {
        case .integer(let value):
            Int(exactly: value)
        case .double(let value):
            Int(exactly: value)
        default:
            nil
        }
    }

    /// The number as a `Double`, if the value is a number.
    ///
    /// An ``integer(_:)`` beyond 2⁵³ in magnitude gives the nearest `Double`,
    /// as `JSONDecoder` would; read ``integer(_:)`` itself when it must stay
    /// exact.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value):
            Double(value)
        case .double(let value):
            value
        default:
            nil
        }
    }

    /// The boolean, if the value is `true` or `false`; numbers are not
    /// booleans, so `JSONValue.integer(1).boolValue` is `nil`.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else {
            return nil
        }
        return value
    }

    /// The elements, if the value is an array.
    public var arrayValue: [JSONValue]? {
        guard case .array(let value) = self else {
            return nil
        }
        return value
    }

    /// The members, if the value is an object.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let value) = self else {
            return nil
        }
        return value
    }
}
