/// Parses an `application/x-www-form-urlencoded` response body into a
/// dictionary.
///
/// The body is read as a sequence of `key=value` pairs:
/// - pairs are separated by `&`; empty segments, as in `a=1&&b=2` or a
///   trailing `&`, are skipped;
/// - a pair splits at its *first* `=`, so `a=b=c` gives `"a": "b=c"`; a
///   segment without `=` is a key with the value `""`, and `=x` is the empty
///   key with the value `"x"`;
/// - in keys and values `+` becomes a space and `%XY` becomes the byte `0xXY`,
///   in that order, so `%2B` gives a literal `+`; the decoded bytes must be
///   UTF-8, so `%E2%9C%93` gives `✓`.
///
/// An empty body gives an empty dictionary.
///
/// A key that occurs more than once is handled by the parser's
/// ``DuplicateKeyPolicy``; by default it is an error.
///
/// A malformed body throws ``ParsingError`` with
/// ``ParsingError/Reason/malformedFormData(_:)``, whose message names the
/// offending pair by its position (the 1-based index of its `&`-separated
/// segment, counting empty ones) rather than by its content, as in
/// `invalid percent-escape "%zz" in value 3`.
///
/// ```swift
/// let parser = FormURLEncodedDataParser()
/// let fields = try parser.parse(data: Data("name=Ada+Lovelace&token=a%2Bb&flag".utf8))
/// // ["name": "Ada Lovelace", "token": "a+b", "flag": ""]
/// ```
public struct FormURLEncodedDataParser: Parser, Sendable {
    /// What ``FormURLEncodedDataParser`` does with a key that occurs more
    /// than once in a body.
    ///
    /// The parser returns `[String: String]`, which holds one value per key: a repeated key is
    /// an error by default rather than a value silently dropped.
    public enum DuplicateKeyPolicy: Sendable {
        /// Throw a ``ParsingError`` with
        /// ``ParsingError/Reason/duplicateKey(_:)``.
        case fail
        /// Keep the value of the first occurrence.
        case useFirst
        /// Keep the value of the last occurrence.
        case useLast
    }

    /// What the parser does with a key that occurs more than once.
    let duplicateKeys: DuplicateKeyPolicy

    /// Creates a form data parser.
    ///
    /// - Parameter duplicateKeys: What to do with a key that occurs more than
    ///   once; ``DuplicateKeyPolicy/fail`` if omitted.
    public init(duplicateKeys: DuplicateKeyPolicy = .fail) {
        self.duplicateKeys = duplicateKeys
    }

    /// `application/x-www-form-urlencoded`.
    public var contentType: String? {
        "application/x-www-form-urlencoded"
    }

    /// Parses the body into its keys and values.
    ///
    /// ```swift
    /// let fields = try FormURLEncodedDataParser(duplicateKeys: .useLast)
    ///     .parse(data: Data("tag=a&tag=b".utf8))
    /// // ["tag": "b"]
    /// ```
    ///
    /// - Parameter data: The response body.
    /// - Returns: The decoded keys and their values.
    /// - Throws: A ``ParsingError`` with
    ///   ``ParsingError/Reason/malformedFormData(_:)`` for a malformed
    ///   percent-escape or text that is not UTF-8, or with
    ///   ``ParsingError/Reason/duplicateKey(_:)`` for a repeated key when the
    ///   policy is ``DuplicateKeyPolicy/fail``.
    public func parse(data: Data) throws -> [String: String] {
        guard !data.isEmpty else {
            return [:]
        }
        return try data.withUnsafeBytes { bytes in
            try parse(bytes: bytes, body: data)
        }
    }

    /// Parses the body's bytes.
    ///
    /// `&` and `=` are ASCII, which never occurs inside a multi-byte UTF-8
    /// sequence, so splitting before decoding is safe even for bytes that
    /// turn out not to be UTF-8; those are caught when each key and value is
    /// decoded.
    ///
    /// - Parameters:
    ///   - bytes: The body's bytes.
    ///   - body: The body, for the error.
    /// - Returns: The decoded keys and their values.
    /// - Throws: A ``ParsingError`` as ``parse(data:)`` describes.
    private func parse(bytes: UnsafeRawBufferPointer, body: Data) throws -> [String: String] {
        var fields: [String: String] = [:]
        var position = 0
        var segmentStart = 0
        while segmentStart <= bytes.count {
            position += 1
            let rest = bytes[segmentStart...]
            let segmentEnd = rest.firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            defer { segmentStart = segmentEnd + 1 }
            guard segmentStart < segmentEnd else {
                continue
            }
            let segment = bytes[segmentStart..<segmentEnd]
            let key: String
            let value: String
            if let equals = segment.firstIndex(of: UInt8(ascii: "=")) {
                key = try decode(segment[..<equals], part: "key", position: position, body: body)
                value = try decode(segment[(equals + 1)...], part: "value", position: position, body: body)
            } else {
                key = try decode(segment, part: "key", position: position, body: body)
                value = ""
            }
            try insert(value, forKey: key, into: &fields, body: body)
        }
        return fields
    }

    /// Decodes one key or value.
    ///
    /// - Parameters:
    ///   - bytes: The encoded key or value.
    ///   - part: `"key"` or `"value"`, for the error message.
    ///   - position: The 1-based position of the segment, for the error
    ///     message.
    ///   - body: The body, for the error.
    /// - Returns: The decoded text.
    /// - Throws: A ``ParsingError`` with
    ///   ``ParsingError/Reason/malformedFormData(_:)``.
    private func decode(
        _ bytes: Slice<UnsafeRawBufferPointer>,
        part: String,
        position: Int,
        body: Data
    ) throws -> String {
        do {
            return try PercentDecoding.decodeString(bytes, plusAsSpace: true)
        } catch {
            let problem: String
            switch error {
            case .malformedEscape(_, let escape):
                // The escape is shown only if it is printable ASCII; it is at
                // most three bytes, never the rest of the key or value.
                if escape.allSatisfy({ (0x21...0x7E).contains($0) }) {
                    problem =
                        "invalid percent-escape \"\(String(decoding: escape, as: UTF8.self))\" in \(part) \(position)"
                } else {
                    problem = "invalid percent-escape in \(part) \(position)"
                }
            case .invalidUTF8:
                problem = "\(part) \(position) is not valid UTF-8"
            }
            throw ParsingError(.malformedFormData(problem), parser: Self.self, body: body)
        }
    }

    /// Adds a pair to the result, applying the duplicate key policy.
    ///
    /// - Parameters:
    ///   - value: The decoded value.
    ///   - key: The decoded key.
    ///   - fields: The pairs decoded so far.
    ///   - body: The body, for the error.
    /// - Throws: A ``ParsingError`` with
    ///   ``ParsingError/Reason/duplicateKey(_:)`` for a repeated key under
    ///   ``DuplicateKeyPolicy/fail``.
    private func insert(
        _ value: String,
        forKey key: String,
        into fields: inout [String: String],
        body: Data
    ) throws {
        switch duplicateKeys {
        case .fail:
            if fields.updateValue(value, forKey: key) != nil {
                throw ParsingError(.duplicateKey(key), parser: Self.self, body: body)
            }
        case .useFirst:
            if fields.index(forKey: key) == nil {
                fields[key] = value
            }
        case .useLast:
            fields[key] = value
        }
    }
}
