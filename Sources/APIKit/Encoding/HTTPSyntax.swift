/// Checks of the HTTP grammar (RFC 9110) that a request must pass before it is sent.
enum HTTPSyntax {
    /// Whether `text` is a `token`: one or more of `A-Z a-z 0-9 ! # $ % & ' * + - . ^ _ ` | ~`.
    /// Header names and methods must be tokens.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenCharacter)
    }

    /// Whether `text` may be sent as a header value: no CR, LF, NUL, other C0 control
    /// character (tab excepted) or DEL. Such bytes would let a value inject header lines,
    /// and URLSession on Linux silently drops a header that holds them.
    static func isValidFieldValue(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in byte == 0x09 || (byte >= 0x20 && byte != 0x7F) }
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
