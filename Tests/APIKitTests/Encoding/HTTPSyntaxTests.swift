import Testing

@testable import APIKit

struct HTTPSyntaxTests {
    @Test("a header value is invalid exactly when it holds a control byte other than tab, or DEL, at any position")
    func fieldValueBytes() {
        for byte in UInt8(0)...UInt8(0x7F) {
            let allowed = byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
            // Positions in the first and second eight-byte word and in the tail.
            for position in [0, 3, 7, 8, 12, 15, 16, 18] {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 19)
                bytes[position] = byte
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(HTTPSyntax.isValidFieldValue(text) == allowed, "byte \(byte) at \(position)")
            }
        }
        #expect(HTTPSyntax.isValidFieldValue(""))
        #expect(HTTPSyntax.isValidFieldValue("Bearer caf\u{E9} \u{1F600} 0123456789abcdef~"))
        #expect(!HTTPSyntax.isValidFieldValue("caf\u{E9} \u{1F600} 0123456789\r\nX-Injected: 1"))
    }

    @Test("a path value's control characters are a header value's, and tab")
    func controlCharacters() {
        for byte in UInt8(0)...UInt8(0x7F) {
            let text = String(decoding: [UInt8(ascii: "a"), byte, UInt8(ascii: "b")], as: UTF8.self)
            #expect(HTTPSyntax.containsControlCharacter(text) == (byte < 0x20 || byte == 0x7F), "byte \(byte)")
        }
        #expect(!HTTPSyntax.containsControlCharacter("caf\u{E9} \u{1F600}"))
    }

    @Test("header names compare and hash ASCII case-insensitively")
    func lowercasedNames() {
        #expect(HTTPSyntax.lowercased("X-Request-ID") == "x-request-id")
        #expect(HTTPSyntax.namesEqual("X-Request-ID", "x-REQUEST-id"))
        #expect(HTTPSyntax.lowercased("\u{C9}tag") == "\u{C9}tag")
    }
}
