import Foundation
import Testing

@testable import APIKitParsers

@Suite("PercentDecoding")
struct PercentDecodingTests {
    private func bytes(_ text: String) -> [UInt8] {
        Array(text.utf8)
    }

    @Test("copies plain bytes and decodes escapes in either case")
    func decodesEscapes() throws {
        #expect(try PercentDecoding.decode(bytes("abc"), plusAsSpace: true) == bytes("abc"))
        #expect(
            try PercentDecoding.decode(bytes("%41%6a%6A%00%ff%FF"), plusAsSpace: false) == [
                0x41, 0x6A, 0x6A, 0x00, 0xFF, 0xFF,
            ])
        #expect(try PercentDecoding.decode([UInt8](), plusAsSpace: true) == [])
    }

    @Test("turns + into a space only when asked")
    func plus() throws {
        #expect(try PercentDecoding.decode(bytes("a+b%2B"), plusAsSpace: true) == bytes("a b+"))
        #expect(try PercentDecoding.decode(bytes("a+b%2B"), plusAsSpace: false) == bytes("a+b+"))
        #expect(try PercentDecoding.decodeString(bytes("a+b"), plusAsSpace: false) == "a+b")
        #expect(try PercentDecoding.decodeString(bytes("a+b"), plusAsSpace: true) == "a b")
    }

    @Test(
        "reports a malformed escape with its offset and bytes",
        arguments: [
            ("%", 0, "%"),
            ("ab%", 2, "%"),
            ("ab%4", 2, "%4"),
            ("%zz", 0, "%zz"),
            ("a%4z", 1, "%4z"),
            ("%20%g0", 3, "%g0"),
            ("é%x", 2, "%x"),
            ("++%-1", 2, "%-1"),
        ]
    )
    func malformed(input: String, offset: Int, escape: String) {
        #expect(throws: PercentDecoding.Failure.malformedEscape(offset: offset, escape: bytes(escape))) {
            try PercentDecoding.decode(self.bytes(input), plusAsSpace: true)
        }
        #expect(throws: PercentDecoding.Failure.malformedEscape(offset: offset, escape: bytes(escape))) {
            try PercentDecoding.decodeString(self.bytes(input), plusAsSpace: true)
        }
    }

    @Test("decodes to a string only if the result is UTF-8")
    func strings() throws {
        #expect(try PercentDecoding.decodeString(bytes("%E2%9C%93 ok"), plusAsSpace: true) == "✓ ok")
        #expect(try PercentDecoding.decodeString(bytes("日本"), plusAsSpace: true) == "日本")
        #expect(throws: PercentDecoding.Failure.invalidUTF8) {
            try PercentDecoding.decodeString(self.bytes("%E2%9C"), plusAsSpace: true)
        }
        #expect(throws: PercentDecoding.Failure.invalidUTF8) {
            try PercentDecoding.decodeString([0x61, 0xFF], plusAsSpace: true)
        }
        #expect(throws: PercentDecoding.Failure.invalidUTF8) {
            try PercentDecoding.decodeString([0xFF, 0x25, 0x34, 0x31], plusAsSpace: true)
        }
    }

    @Test("decodes every byte value")
    func everyByte() throws {
        let encoded = (0...255).map { String(format: "%%%02X", $0) }.joined()
        #expect(try PercentDecoding.decode(bytes(encoded), plusAsSpace: true) == (0...255).map { UInt8($0) })
    }

    @Test("agrees with Foundation on random well-formed input")
    func agreesWithFoundation() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcXYZ019-._~ %+=&/?é✓😀")
        for _ in 0..<500 {
            let length = Int.random(in: 0...20, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            let encoded = try #require(text.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            #expect(try PercentDecoding.decodeString(bytes(encoded), plusAsSpace: false) == text)
            #expect(try PercentDecoding.decodeString(bytes(encoded), plusAsSpace: true) == text)
        }
    }

    @Test("works on slices and non-contiguous collections")
    func otherCollections() throws {
        let whole = bytes("xx%41+yy")
        #expect(try PercentDecoding.decode(whole[2..<6], plusAsSpace: true) == bytes("A "))
        #expect(try PercentDecoding.decodeString(bytes("%41b").reversed().reversed(), plusAsSpace: true) == "Ab")
        #expect(throws: PercentDecoding.Failure.malformedEscape(offset: 2, escape: bytes("%4"))) {
            try PercentDecoding.decode(whole[0..<4], plusAsSpace: true)
        }
    }
}
