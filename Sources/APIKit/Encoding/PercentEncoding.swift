/// Percent-encodes text for query strings, form bodies and paths, from its UTF-8 bytes.
///
/// One encoder serves all three so that they agree: everything outside the RFC 3986
/// unreserved set (`A-Z a-z 0-9 - . _ ~`) is escaped as `%XX` with upper-case hex digits,
/// exactly once. Form encoding differs only in writing a space as `+`.
enum PercentEncoding {
    /// How a space is written.
    enum Style {
        /// Query strings: a space is `%20`.
        case query
        /// HTML form bodies (`application/x-www-form-urlencoded`): a space is `+`.
        case form
    }

    /// `text` with every byte outside the unreserved set escaped.
    static func encode(_ text: String, style: Style) -> String {
        var output: [UInt8] = []
        append(text, style: style, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `text` to `output` with every byte outside the unreserved set escaped.
    static func append(_ text: String, style: Style, to output: inout [UInt8]) {
        // A native string's bytes are read in place; `var copy = text; copy.withUTF8` would
        // retain and release its storage on every call. Written out rather than through
        // `String.withUTF8InPlace`, which costs more instructions per request
        // (`scripts/instruction-counts.sh`).
        if text.utf8.withContiguousStorageIfAvailable({ append(utf8: $0, style: style, to: &output) }) != nil {
            return
        }
        var text = text
        text.withUTF8 { append(utf8: $0, style: style, to: &output) }
    }

    /// Runs of unreserved bytes are copied in one go; appending byte by byte checks the
    /// array's capacity and uniqueness for every byte.
    private static func append(utf8: UnsafeBufferPointer<UInt8>, style: Style, to output: inout [UInt8]) {
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            if isUnreserved(byte) { continue }
            if runStart < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            if byte == UInt8(ascii: " ") && style == .form {
                output.append(UInt8(ascii: "+"))
            } else {
                appendEscape(byte, to: &output)
            }
        }
        if runStart < utf8.count {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }

    /// Appends a path with every character that may not appear in a URL path escaped.
    ///
    /// Kept as they are: unreserved characters, sub-delimiters (`!$&'()*+,;=`), `:`, `@`,
    /// `/`, and `%` when it starts a valid `%XX` escape. Everything else — including `?`,
    /// `#`, a space and non-ASCII characters — is escaped, so the result is always a valid
    /// percent-encoded path.
    static func appendPath(utf8: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            if isUnreserved(byte) || isPathDelimiter(byte) { continue }
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count, isHexDigit(utf8[index + 1]),
                isHexDigit(utf8[index + 2])
            {
                continue
            }
            if runStart < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            appendEscape(byte, to: &output)
        }
        if runStart < utf8.count {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }

    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    @inline(__always)
    private static func isPathDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            true
        default:
            false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"),
            UInt8(ascii: "a")...UInt8(ascii: "f"):
            true
        default:
            false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }
}
