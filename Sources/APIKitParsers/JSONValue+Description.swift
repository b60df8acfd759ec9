extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text, with object keys sorted.
    ///
    /// Keys are sorted (with `String`'s `<`) so that the text is the
    /// same on every run, since ``object(_:)`` keeps no order. Strings are
    /// escaped as JSON requires: `"` and `\` with a backslash, control
    /// characters as `\n`, `\t` or `\u001F`. A ``double(_:)`` prints as
    /// Swift prints a `Double`, which is valid JSON for every finite value;
    /// a value that is not finite, which no parsed value holds, prints as
    /// `nan`, `inf` or `-inf`, which is not JSON.
    ///
    /// ```swift
    /// let value: JSONValue = ["b": [1, 2.5, "x\n"], "a": .null]
    /// print(value)   // {"a":null,"b":[1,2.5,"x\n"]}
    /// ```
    public var description: String {
        var text = ""
        write(to: &text)
        return text
    }

    /// Appends the value's JSON text to `text`.
    ///
    /// - Parameter text: The text to append to.
    private func write(to text: inout String) {
        switch self {
        case .null:
            text += "null"
        case .bool(let value):
            text += value ? "true" : "false"
        case .integer(let value):
            text += String(value)
        case .double(let value):
            text += value.description
        case .string(let value):
            Self.writeString(value, to: &text)
        case .array(let elements):
            text += "["
            for (position, element) in elements.enumerated() {
                if position > 0 {
                    text += ","
                }
                element.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (position, key) in members.keys.sorted().enumerated() {
                if position > 0 {
                    text += ","
                }
                Self.writeString(key, to: &text)
                text += ":"
                members[key]?.write(to: &text)
            }
            text += "}"
        }
    }

    /// Appends a string as a JSON string literal.
    ///
    /// - Parameters:
    ///   - string: The string to write.
    ///   - text: The text to append to.
    private static func writeString(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"":
                text += "\\\""
            case "\\":
                text += "\\\\"
            case "\n":
                text += "\\n"
            case "\r":
                text += "\\r"
            case "\t":
                text += "\\t"
            case "\u{08}":
                text += "\\b"
            case "\u{0C}":
                text += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
