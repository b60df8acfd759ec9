import APIKitParsers
import Foundation
import Testing

@Suite("StringParser")
struct StringParserTests {
    @Test("sends no Accept header and defaults to UTF-8")
    func defaults() throws {
        let parser = StringParser()
        #expect(parser.contentType == nil)
        // "café" in UTF-8: the default reads it; ISO Latin-1 reads its two-byte é as two characters
        let utf8 = Data([0x63, 0x61, 0x66, 0xC3, 0xA9])
        #expect(try parser.parse(data: utf8) == "café")
        #expect(try StringParser(encoding: .isoLatin1).parse(data: utf8) == "caf\u{C3}\u{A9}")
    }

    @Test(
        "decodes UTF-8 including emoji, CJK and combining marks",
        arguments: ["hello", "héllo ✓", "日本語のテキスト", "👩‍👩‍👧 🇯🇵", "e\u{301}", "a\u{0}b"])
    func utf8(text: String) throws {
        #expect(try StringParser().parse(data: Data(text.utf8)) == text)
    }

    @Test(
        "decodes an empty body as the empty string in every encoding",
        arguments: [String.Encoding.utf8, .utf16, .utf16LittleEndian, .utf32, .isoLatin1, .ascii])
    func emptyBody(encoding: String.Encoding) throws {
        #expect(try StringParser(encoding: encoding).parse(data: Data()) == "")
    }

    @Test(
        "rejects invalid UTF-8 instead of substituting U+FFFD",
        arguments: [
            [0xFF],
            [0x68, 0x69, 0x80],
            [0xC3],
            [0xC0, 0x80],
            [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80],
            [0xE2, 0x9C],
            [0x61, 0xF0, 0x9F, 0x98, 0x61],
        ] as [[UInt8]]
    )
    func invalidUTF8(bytes: [UInt8]) throws {
        let error = try #require(throws: ParsingError.self) {
            try StringParser().parse(data: Data(bytes))
        }
        #expect(error.reason == .invalidTextEncoding("UTF-8"))
        #expect(error.parser == "StringParser")
        #expect(error.bodyPrefix == Data(bytes))
        #expect(error.bodyLength == bytes.count)
    }

    @Test("strips a leading UTF-8 byte order mark, and keeps any later one")
    func byteOrderMark() throws {
        let parser = StringParser()
        #expect(try parser.parse(data: Data([0xEF, 0xBB, 0xBF] + Array("hi".utf8))) == "hi")
        #expect(try parser.parse(data: Data([0xEF, 0xBB, 0xBF])) == "")
        #expect(try parser.parse(data: Data([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("hi".utf8))) == "\u{FEFF}hi")
        #expect(try parser.parse(data: Data(Array("a".utf8) + [0xEF, 0xBB, 0xBF])) == "a\u{FEFF}")
    }

    @Test("strips the byte order mark of a sliced body")
    func byteOrderMarkInSlice() throws {
        let body = Data([0x00, 0xEF, 0xBB, 0xBF, 0x6F, 0x6B]).dropFirst()
        #expect(try StringParser().parse(data: body) == "ok")
    }

    @Test("decodes UTF-16 in both byte orders")
    func utf16() throws {
        let text = "hé✓日😀"
        let littleEndian = Data(
            text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] })
        let bigEndian = Data(
            text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] })
        #expect(try StringParser(encoding: .utf16LittleEndian).parse(data: littleEndian) == text)
        #expect(try StringParser(encoding: .utf16BigEndian).parse(data: bigEndian) == text)
        #expect(try StringParser(encoding: .utf16).parse(data: Data([0xFF, 0xFE]) + littleEndian) == text)
        #expect(try StringParser(encoding: .utf16).parse(data: Data([0xFE, 0xFF]) + bigEndian) == text)
        #expect(
            try StringParser(encoding: .utf16LittleEndian).parse(data: Data([0xFF, 0xFE]) + littleEndian) == "\u{FEFF}"
                + text)
    }

    @Test(
        "rejects UTF-16 with an unpaired surrogate or an odd length",
        arguments: [[0x00, 0xD8], [0x00, 0xDC, 0x41, 0x00], [0x41], [0x41, 0x00, 0x42]] as [[UInt8]])
    func invalidUTF16(bytes: [UInt8]) throws {
        let error = try #require(throws: ParsingError.self) {
            try StringParser(encoding: .utf16LittleEndian).parse(data: Data(bytes))
        }
        #expect(error.reason == .invalidTextEncoding("UTF-16LE"))
    }

    @Test("decodes UTF-32 and rejects a partial code unit")
    func utf32() throws {
        #expect(try StringParser(encoding: .utf32).parse(data: Data([0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0])) == "A")
        #expect(try StringParser(encoding: .utf32).parse(data: Data([0, 0, 0xFE, 0xFF, 0, 0, 0, 0x41])) == "A")
        #expect(
            try StringParser(encoding: .utf32BigEndian).parse(data: Data([0, 0, 0xFE, 0xFF, 0, 0, 0, 0x41]))
                == "\u{FEFF}A")
        #expect(
            try StringParser(encoding: .utf32LittleEndian).parse(data: Data([0x41, 0, 0, 0, 0x00, 0xF6, 0x01, 0x00]))
                == "A😀")
        let error = try #require(throws: ParsingError.self) {
            try StringParser(encoding: .utf32LittleEndian).parse(data: Data([0x41, 0, 0, 0, 0x42]))
        }
        #expect(error.reason == .invalidTextEncoding("UTF-32LE"))
    }

    @Test("decodes ISO Latin 1, where every byte is a character")
    func isoLatin1() throws {
        #expect(try StringParser(encoding: .isoLatin1).parse(data: Data([0x63, 0x61, 0x66, 0xE9])) == "café")
        let allBytes = Data((0...255).map { UInt8($0) })
        let text = try StringParser(encoding: .isoLatin1).parse(data: allBytes)
        #expect(text.unicodeScalars.map(\.value) == (0...255).map { UInt32($0) })
    }

    @Test("rejects bytes outside ASCII and unassigned Windows-1252 bytes")
    func otherEncodings() throws {
        let ascii = try #require(throws: ParsingError.self) {
            try StringParser(encoding: .ascii).parse(data: Data([0x61, 0x80]))
        }
        #expect(ascii.reason == .invalidTextEncoding("US-ASCII"))
        #expect(
            try StringParser(encoding: .windowsCP1252).parse(data: Data([0x93, 0x61, 0x94])) == "\u{201C}a\u{201D}")
        let windows = try #require(throws: ParsingError.self) {
            try StringParser(encoding: .windowsCP1252).parse(data: Data([0x81]))
        }
        #expect(windows.reason == .invalidTextEncoding("windows-1252"))
    }
}
