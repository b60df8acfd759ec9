extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates ``bool(_:)`` from a boolean literal.
    ///
    /// ```swift
    /// let flag: JSONValue = true   // .bool(true)
    /// ```
    ///
    /// - Parameter value: The literal's value.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates ``integer(_:)`` from an integer literal.
    ///
    /// ```swift
    /// let count: JSONValue = 42   // .integer(42)
    /// ```
    ///
    /// - Parameter value: The literal's value.
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates ``double(_:)`` from a floating-point literal.
    ///
    /// `1.0` gives `.double(1.0)`, which equals `.integer(1)`, the value
    /// `JSONParser<JSONValue>` reads from the body `1.0`.
    ///
    /// ```swift
    /// let ratio: JSONValue = 0.5   // .double(0.5)
    /// ```
    ///
    /// - Parameter value: The literal's value.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates ``string(_:)`` from a string literal.
    ///
    /// ```swift
    /// let name: JSONValue = "Ada"   // .string("Ada")
    /// ```
    ///
    /// - Parameter value: The literal's value.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates ``array(_:)`` from an array literal.
    ///
    /// ```swift
    /// let tags: JSONValue = ["a", 1, true, .null]
    /// ```
    ///
    /// - Parameter elements: The literal's elements, in order.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates ``object(_:)`` from a dictionary literal.
    ///
    /// A key written twice keeps its last value (a `Dictionary` literal
    /// would trap).
    ///
    /// ```swift
    /// let user: JSONValue = ["id": 7, "name": "Ada", "tags": ["a"], "manager": .null]
    /// ```
    ///
    /// - Parameter elements: The literal's keys and values.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
