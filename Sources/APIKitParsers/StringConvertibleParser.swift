/// Reads a response body that is the text of a single value, such as `42`,
/// `true` or `3.5`, with the value type's `LosslessStringConvertible`
/// initializer.
///
/// The body is decoded as ``StringParser`` decodes it, in the parser's encoding
/// (UTF-8 unless you choose another, with a leading UTF-8 byte
/// order mark stripped and invalid bytes an error), then whitespace and
/// newlines around the text are trimmed — every character whose
/// `Character.isWhitespace` is `true`, so `" 42\r\n"` reads as `42` — and the
/// rest is handed to `Value.init(_:)` as it is. The parser accepts exactly
/// what that initializer accepts: `Int` takes `+42` but not `4_2` or
/// `42.0`, `Bool` only `true` and `false`, and `Double` also `nan`, `inf`
/// and `1e999` (as infinity).
///
/// Any type of yours that conforms to `LosslessStringConvertible` works too:
///
/// ```swift
/// struct Version: LosslessStringConvertible {
///     var major: Int, minor: Int
///     var description: String { "\(major).\(minor)" }
///     init?(_ text: String) {
///         let parts = text.split(separator: ".")
///         guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]) else { return nil }
///         (self.major, self.minor) = (major, minor)
///     }
/// }
///
/// let count = try StringConvertibleParser<Int>().parse(data: Data("42\n".utf8))          // 42
/// let version = try StringConvertibleParser<Version>().parse(data: Data("1.2".utf8))     // 1.2
/// ```
///
/// Failures are ``ParsingError``s naming the parser, such as
/// `StringConvertibleParser<Int>`:
/// - bytes that are not valid text in the parser's encoding:
///   ``ParsingError/Reason/invalidTextEncoding(_:)``;
/// - an empty body (zero bytes) that `Value` rejects:
///   ``ParsingError/Reason/emptyBody``. `String` accepts it and gives `""`;
/// - text that `Value` rejects:
///   ``ParsingError/Reason/notConvertible(expected:text:)``, with the
///   type's name and the escaped start of the trimmed text.
///
/// Like ``StringParser``, the parser sends no `Accept` header: such values
/// come as `text/plain`, `application/json` and more.
public struct StringConvertibleParser<Value: LosslessStringConvertible>: Parser, Sendable {
    /// The number of leading Unicode scalars of the rejected text that
    /// ``ParsingError/Reason/notConvertible(expected:text:)`` keeps.
    static var textPrefixLimit: Int {
        32
    }

    /// The encoding the body is expected to be in.
    let encoding: String.Encoding

    /// Creates a parser for the text of a `Value` in the given encoding.
    ///
    /// - Parameter encoding: The body's encoding; UTF-8 if omitted.
    public init(encoding: String.Encoding = .utf8) {
        self.encoding = encoding
    }

    /// `nil`: the parser sends no `Accept` header.
    public var contentType: String? {
        nil
    }

    /// Decodes the body as text, trims the whitespace around it and converts
    /// it into a `Value`.
    ///
    /// ```swift
    /// let enabled = try StringConvertibleParser<Bool>().parse(data: Data("true".utf8))
    /// let ratio = try StringConvertibleParser<Double>(encoding: .utf16LittleEndian)
    ///     .parse(data: Data([0x33, 0x00, 0x2E, 0x00, 0x35, 0x00]))   // 3.5
    /// ```
    ///
    /// - Parameter data: The response body.
    /// - Returns: The value the body's text stands for.
    /// - Throws: A ``ParsingError`` if the body is not valid text in
    ///   the parser's encoding (``ParsingError/Reason/invalidTextEncoding(_:)``), is
    ///   empty and `Value` needs content (``ParsingError/Reason/emptyBody``),
    ///   or is text that `Value` rejects
    ///   (``ParsingError/Reason/notConvertible(expected:text:)``).
    public func parse(data: Data) throws -> Value {
        let text = try StringParser(encoding: encoding).decode(data, reportingAs: Self.self)
        let trimmed = Self.trimmingWhitespace(text)
        if let value = Value(trimmed) {
            return value
        }
        guard !data.isEmpty else {
            throw ParsingError(.emptyBody, parser: Self.self, body: data)
        }
        let reason = ParsingError.Reason.notConvertible(
            expected: String(describing: Value.self),
            text: Self.escapedPrefix(of: trimmed)
        )
        throw ParsingError(reason, parser: Self.self, body: data)
    }

    /// The text without the whitespace and newlines around it.
    ///
    /// - Parameter text: The text to trim.
    /// - Returns: `text` without leading and trailing characters whose
    ///   `isWhitespace` is `true`.
    static func trimmingWhitespace(_ text: String) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else {
            return ""
        }
        return String(text[first...last])
    }

    /// The start of a rejected text, safe to show: at most
    /// ``textPrefixLimit`` Unicode scalars, followed by `…` if there were
    /// more, with `"` and `\` escaped with a backslash, tabs, newlines and
    /// carriage returns as `\t`, `\n` and `\r`, and every other control,
    /// formatting (such as U+202E, which reverses the text after it),
    /// separator, surrogate, private-use or unassigned scalar as `\u{…}`.
    ///
    /// - Parameter text: The rejected text.
    /// - Returns: The escaped prefix.
    static func escapedPrefix(of text: String) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < textPrefixLimit else {
                result += "…"
                break
            }
            count += 1
            switch scalar {
            case "\"":
                result += "\\\""
            case "\\":
                result += "\\\\"
            case "\t":
                result += "\\t"
            case "\n":
                result += "\\n"
            case "\r":
                result += "\\r"
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                default:
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
