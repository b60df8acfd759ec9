/// Reads a response body as text in a given encoding.
///
/// Decoding is strict: a body that is not valid text in the parser's
/// encoding throws ``ParsingError`` with
/// ``ParsingError/Reason/invalidTextEncoding(_:)``. The parser never returns
/// a string in which bad bytes were replaced by U+FFFD. An empty body gives
/// the empty string.
///
/// Byte order marks:
/// - with `.utf8`, a leading UTF-8 byte order mark (`EF BB BF`) is
///   stripped; any later U+FEFF is kept;
/// - with `.utf16` and `.utf32`, a leading byte order mark picks the byte
///   order and is stripped; without one, Foundation picks the byte order,
///   which may differ between platforms, so prefer the explicit
///   `.utf16BigEndian`, `.utf16LittleEndian`, `.utf32BigEndian` or
///   `.utf32LittleEndian` when the server does not send a mark;
/// - with those explicit byte orders, and with every other encoding, the
///   body is decoded as it is, so a mark stays in the text as U+FEFF.
///
/// A UTF-16 body whose length is odd, or a UTF-32 body whose length is not
/// a multiple of four, is invalid. An encoding the platform cannot convert
/// from fails like invalid text.
///
/// The parser sends no `Accept` header: text comes in many media types,
/// and asking for one would narrow what a server may send.
///
/// ```swift
/// let text = try StringParser().parse(data: Data("héllo ✓".utf8))
/// let legacy = try StringParser(encoding: .isoLatin1).parse(data: Data([0x63, 0x61, 0x66, 0xE9]))
/// // "café"
/// ```
public struct StringParser: Parser, Sendable {
    /// The encoding the body is expected to be in.
    let encoding: String.Encoding

    /// Creates a parser for text in the given encoding.
    ///
    /// - Parameter encoding: The body's encoding; UTF-8 if omitted.
    public init(encoding: String.Encoding = .utf8) {
        self.encoding = encoding
    }

    /// `nil`: the parser sends no `Accept` header.
    public var contentType: String? {
        nil
    }

    /// Decodes the body as text in the parser's encoding.
    ///
    /// ```swift
    /// let text = try StringParser(encoding: .utf16LittleEndian)
    ///     .parse(data: Data([0x68, 0x00, 0x69, 0x00]))
    /// // "hi"
    /// ```
    ///
    /// - Parameter data: The response body.
    /// - Returns: The text; empty for an empty body.
    /// - Throws: A ``ParsingError`` with
    ///   ``ParsingError/Reason/invalidTextEncoding(_:)`` if the body is not
    ///   valid text in the parser's encoding.
    public func parse(data: Data) throws -> String {
        guard !data.isEmpty else {
            return ""
        }
        let text: String?
        if encoding == .utf8 {
            let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
            let content = data.starts(with: byteOrderMark) ? data.dropFirst(byteOrderMark.count) : data
            text = UTF8Validation.string(content)
        } else if data.count.isMultiple(of: codeUnitWidth) {
            text = String(data: data, encoding: encoding)
        } else {
            // Foundation silently drops a trailing partial code unit.
            text = nil
        }
        guard let text else {
            throw ParsingError(.invalidTextEncoding(encoding.charsetName), parser: Self.self, body: data)
        }
        return text
    }

    /// The size in bytes of the encoding's code unit for the fixed-width
    /// Unicode encodings, and 1 for every other encoding.
    private var codeUnitWidth: Int {
        switch encoding {
        case .utf16, .utf16BigEndian, .utf16LittleEndian:
            2
        case .utf32, .utf32BigEndian, .utf32LittleEndian:
            4
        default:
            1
        }
    }
}
