/// Checks of the HTTP grammar (RFC 9110) that a request must pass before it is sent.
enum HTTPSyntax {
    /// Whether `text` is a `token`: one or more of `A-Z a-z 0-9 ! # $ % & ' * + - . ^ _ ` | ~`.
    /// Header names and methods must be tokens.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && allBytes(of: text, satisfy: isTokenCharacter)
    }

    /// Whether `text` may be sent as a header value: no CR, LF, NUL, other C0 control
    /// character (tab excepted) or DEL. Such bytes would let a value inject header lines,
    /// and URLSession on Linux silently drops a header that holds them.
    static func isValidFieldValue(_ text: String) -> Bool {
        allBytes(of: text) { byte in byte == 0x09 || (byte >= 0x20 && byte != 0x7F) }
    }

    /// Whether every UTF-8 byte of `text` passes, reading contiguous storage directly.
    @inline(__always)
    private static func allBytes(of text: String, satisfy predicate: (UInt8) -> Bool) -> Bool {
        if let result = text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(predicate) }) {
            return result
        }
        return text.utf8.allSatisfy(predicate)
    }

    /// Whether two header names are the same, compared ASCII case-insensitively (as HTTP
    /// does), without allocating lower-cased copies.
    static func namesEqual(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lower($0) == lower($1) }
    }

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    @inline(__always)
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"),
            UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
            UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
