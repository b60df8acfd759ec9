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
        text.withUTF8InPlace { isValidFieldValue($0) }
    }

    /// Whether `text` holds any C0 control character, tab included, or DEL: what a path
    /// segment may not hold. A header value (``isValidFieldValue(_:)``) may hold a tab.
    static func containsControlCharacter(_ text: String) -> Bool {
        !isValidFieldValue(text) || text.utf8.contains(0x09)
    }

    /// `isValidFieldValue` on UTF-8 bytes, eight at a time: a header value is checked on
    /// every request, and most hold no byte below 0x20 or 0x7F at all.
    private static func isValidFieldValue(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = utf8.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= utf8.count {
            let word = UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self)
            // A byte below 0x20 (or from 0x80, which then passes the exact check below), or
            // one equal to 0x7F, sets its high bit in `suspect`: the classic "has a byte less
            // than n" and "has a zero byte" tricks.
            let below = (word &- ones &* 0x20) & ~word & highs
            let deletes = word ^ (ones &* 0x7F)
            let suspect = below | ((deletes &- ones) & ~deletes & highs)
            if suspect != 0 {
                for offset in index..<index + 8 where !isFieldValueByte(utf8[offset]) { return false }
            }
            index += 8
        }
        for offset in index..<utf8.count where !isFieldValueByte(utf8[offset]) { return false }
        return true
    }

    @inline(__always)
    private static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
    }

    /// Whether every UTF-8 byte of `text` passes, reading contiguous storage directly.
    @inline(__always)
    private static func allBytes(of text: String, satisfy predicate: (UInt8) -> Bool) -> Bool {
        text.withUTF8InPlace { $0.allSatisfy(predicate) }
    }

    /// The headers the transport sets from the body and the connection, never a request.
    static let framingHeaderNames = [
        "Content-Length", "Transfer-Encoding", "TE", "Trailer", "Connection", "Keep-Alive", "Proxy-Connection",
        "Upgrade",
    ]

    /// Whether `name` is one of ``framingHeaderNames``, compared case-insensitively. A name is
    /// told apart by its length and first letter, which leave at most one candidate to compare:
    /// every header of every request is checked, most of them in a few instructions.
    static func isFramingHeader(_ name: String) -> Bool {
        name.withUTF8InPlace { bytes in
            guard let first = bytes.first else { return false }
            let candidate: StaticString
            // `| 0x20` lower-cases a letter; a byte it maps onto one is then compared in full.
            // `FramingHeaderTests.names` holds every name of the list above to this switch.
            switch (bytes.count, first | 0x20) {
            case (2, UInt8(ascii: "t")): candidate = "te"
            case (7, UInt8(ascii: "t")): candidate = "trailer"
            case (7, UInt8(ascii: "u")): candidate = "upgrade"
            case (10, UInt8(ascii: "c")): candidate = "connection"
            case (10, UInt8(ascii: "k")): candidate = "keep-alive"
            case (14, UInt8(ascii: "c")): candidate = "content-length"
            case (16, UInt8(ascii: "p")): candidate = "proxy-connection"
            case (17, UInt8(ascii: "t")): candidate = "transfer-encoding"
            default: return false
            }
            return candidate.withUTF8Buffer { lowercase in
                lowercase.count == bytes.count && zip(lowercase, bytes).allSatisfy { $0 == lower($1) }
            }
        }
    }

    /// The first framing header among `fields`' names, if any.
    static func firstFramingHeader(in fields: [String: String]?) -> String? {
        guard let fields else { return nil }
        for name in fields.keys where isFramingHeader(name) { return name }
        return nil
    }

    /// Whether two header names are the same, compared ASCII case-insensitively (as HTTP
    /// does), without allocating lower-cased copies.
    static func namesEqual(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lower($0) == lower($1) }
    }

    /// `name` with ASCII letters in lower case: equal for names that ``namesEqual(_:_:)`` finds
    /// equal, for hashing them.
    static func lowercased(_ name: String) -> String {
        String(decoding: name.utf8.map(lower), as: UTF8.self)
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
