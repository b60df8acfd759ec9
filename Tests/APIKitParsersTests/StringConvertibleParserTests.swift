import Foundation
import Testing

@testable import APIKitParsers

@Suite("StringConvertibleParser")
struct StringConvertibleParserTests {
    struct Version: LosslessStringConvertible, Equatable {
        var major: Int
        var minor: Int

        var description: String {
            "\(major).\(minor)"
        }

        init(major: Int, minor: Int) {
            (self.major, self.minor) = (major, minor)
        }

        init?(_ text: String) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]) else {
                return nil
            }
            (self.major, self.minor) = (major, minor)
        }
    }

    func parse<Value: LosslessStringConvertible>(_ type: Value.Type, _ text: String) throws -> Value {
        try StringConvertibleParser<Value>().parse(data: Data(text.utf8))
    }

    @Test("sends no Accept header and defaults to UTF-8")
    func defaults() throws {
        #expect(StringConvertibleParser<Int>().contentType == nil)
        // "é" in UTF-8: the default reads one character; ISO Latin-1 reads two
        let utf8 = Data([0xC3, 0xA9])
        #expect(try StringConvertibleParser<String>().parse(data: utf8) == "é")
        #expect(try StringConvertibleParser<String>(encoding: .isoLatin1).parse(data: utf8) == "\u{C3}\u{A9}")
    }

    @Test("reads Int, Bool, Double, String and a type of one's own")
    func reads() throws {
        #expect(try parse(Int.self, "42") == 42)
        #expect(try parse(Int.self, "-7") == -7)
        #expect(try parse(Int.self, "+7") == 7)
        #expect(try parse(Int64.self, "9223372036854775807") == .max)
        #expect(try parse(UInt8.self, "255") == 255)
        #expect(try parse(Bool.self, "true") == true)
        #expect(try parse(Bool.self, "false") == false)
        #expect(try parse(Double.self, "3.5") == 3.5)
        #expect(try parse(Double.self, "-1e-3") == -0.001)
        #expect(try parse(String.self, "  hi there \n") == "hi there")
        #expect(try parse(Character.self, "x") == "x")
        #expect(try parse(Version.self, "1.2") == Version(major: 1, minor: 2))
    }

    @Test(
        "trims whitespace and newlines around the text, Unicode spaces included",
        arguments: [" 42", "42\n", "\r\n42\r\n", "\t 42 \t", "\u{A0}42\u{2028}", "\u{3000}42\u{85}"]
    )
    func trims(text: String) throws {
        #expect(try parse(Int.self, text) == 42)
    }

    @Test("keeps inner whitespace, so the value type decides")
    func innerWhitespace() throws {
        let error = try #require(throws: ParsingError.self) { try parse(Int.self, "4 2") }
        #expect(error.reason == .notConvertible(expected: "Int", text: "4 2"))
        #expect(try parse(String.self, " a  b ") == "a  b")
    }

    @Test("accepts exactly what the value type's initializer accepts")
    func initializerDecides() throws {
        #expect(try parse(Double.self, "1e999") == .infinity)
        #expect(try parse(Double.self, "inf") == .infinity)
        #expect(try parse(Double.self, "nan").isNaN)
        for (text, type) in [
            ("4_2", "Int"), ("42.0", "Int"), ("0x2A", "Int"), ("TRUE", "Bool"), ("1", "Bool"), ("yes", "Bool"),
        ] {
            let error = try #require(throws: ParsingError.self) {
                if type == "Int" { _ = try parse(Int.self, text) } else { _ = try parse(Bool.self, text) }
            }
            #expect(error.reason == .notConvertible(expected: type, text: text))
        }
    }

    @Test("rejects a number beyond the type as notConvertible")
    func hugeNumbers() throws {
        let digits = String(repeating: "9", count: 40)
        let error = try #require(throws: ParsingError.self) { try parse(Int.self, digits) }
        #expect(error.reason == .notConvertible(expected: "Int", text: String(repeating: "9", count: 32) + "…"))
        #expect(error.parser == "StringConvertibleParser<Int>")
        #expect(error.bodyLength == 40)
        #expect(error.bodyPrefix == Data(digits.utf8))
        #expect(error.underlyingError == nil)
        #expect(throws: ParsingError.self) { try parse(UInt8.self, "256") }
        #expect(throws: ParsingError.self) { try parse(Int.self, String(repeating: "1", count: 1_000_000)) }
    }

    @Test("names the type in the reason, the parser and the description")
    func namesType() throws {
        let error = try #require(throws: ParsingError.self) { try parse(Version.self, "v1") }
        #expect(error.reason == .notConvertible(expected: "Version", text: "v1"))
        #expect(error.parser == "StringConvertibleParser<Version>")
        #expect(
            error.description
                == "StringConvertibleParser<Version> could not parse the response body (2 bytes): the text is not a valid Version"
        )
    }

    @Test("an empty body is emptyBody for a type that needs content, and the empty string for String")
    func emptyBody() throws {
        let error = try #require(throws: ParsingError.self) { try parse(Int.self, "") }
        #expect(error.reason == .emptyBody)
        #expect(error.parser == "StringConvertibleParser<Int>")
        #expect(try parse(String.self, "") == "")
        let blank = try #require(throws: ParsingError.self) { try parse(Bool.self, " \n ") }
        #expect(blank.reason == .notConvertible(expected: "Bool", text: ""))
    }

    @Test("rejects bytes that are not valid text, naming the parser")
    func invalidText() throws {
        let error = try #require(throws: ParsingError.self) {
            try StringConvertibleParser<Int>().parse(data: Data([0x34, 0xFF, 0x32]))
        }
        #expect(error.reason == .invalidTextEncoding("UTF-8"))
        #expect(error.parser == "StringConvertibleParser<Int>")
        let odd = try #require(throws: ParsingError.self) {
            try StringConvertibleParser<Int>(encoding: .utf16LittleEndian).parse(data: Data([0x34, 0x00, 0x32]))
        }
        #expect(odd.reason == .invalidTextEncoding("UTF-16LE"))
    }

    @Test("strips a leading UTF-8 byte order mark, and reads other encodings")
    func encodings() throws {
        #expect(try StringConvertibleParser<Int>().parse(data: Data([0xEF, 0xBB, 0xBF]) + Data(" 42\n".utf8)) == 42)
        #expect(
            try StringConvertibleParser<Double>(encoding: .utf16LittleEndian)
                .parse(data: Data([0x33, 0x00, 0x2E, 0x00, 0x35, 0x00])) == 3.5)
        #expect(
            try StringConvertibleParser<String>(encoding: .isoLatin1).parse(data: Data([0x63, 0x61, 0x66, 0xE9]))
                == "café")
        // With UTF-16 the mark is only stripped where StringParser strips it, so a marked
        // little-endian body read as .utf16LittleEndian keeps U+FEFF, which Int rejects.
        let marked = try #require(throws: ParsingError.self) {
            try StringConvertibleParser<Int>(encoding: .utf16LittleEndian)
                .parse(data: Data([0xFF, 0xFE, 0x34, 0x00, 0x32, 0x00]))
        }
        #expect(marked.reason == .notConvertible(expected: "Int", text: "\\u{FEFF}42"))
    }

    @Test("escapes quotes, backslashes, controls and invisible formatting in the text it shows")
    func escapesText() throws {
        let error = try #require(throws: ParsingError.self) {
            try parse(Int.self, "4\"2\\x\ty\0\u{1B}[31m\u{202E}\u{200B}é😀\u{2028}z\n")
        }
        #expect(
            error.reason
                == .notConvertible(expected: "Int", text: #"4\"2\\x\ty\u{0}\u{1B}[31m\u{202E}\u{200B}é😀\u{2028}z"#))
        #expect(StringConvertibleParser<Int>.escapedPrefix(of: "a\nb\rc") == #"a\nb\rc"#)
        #expect(StringConvertibleParser<Int>.escapedPrefix(of: "\u{E000}\u{FFFF}") == #"\u{E000}\u{FFFF}"#)
    }

    @Test("shows at most 32 Unicode scalars of the text, so a huge grapheme cannot flood it")
    func prefixIsBounded() throws {
        let zalgo = "a" + String(repeating: "\u{301}", count: 10_000)
        let error = try #require(throws: ParsingError.self) { try parse(Int.self, zalgo) }
        guard case .notConvertible(_, let text) = error.reason else {
            Issue.record("expected notConvertible, got \(error.reason)")
            return
        }
        #expect(text.unicodeScalars.count == 33)
        #expect(text.hasSuffix("…"))
        #expect(
            StringConvertibleParser<Int>.escapedPrefix(of: String(repeating: "x", count: 32))
                == String(repeating: "x", count: 32))
    }

    @Test("never puts the text in the error's description")
    func descriptionHidesText() throws {
        let error = try #require(throws: ParsingError.self) { try parse(Int.self, "sk_live_SUPERSECRET") }
        for text in [error.description, "\(error)", String(reflecting: error), error.localizedDescription] {
            #expect(!text.contains("SUPERSECRET"))
        }
        #expect(error.reason == .notConvertible(expected: "Int", text: "sk_live_SUPERSECRET"))
    }
}
