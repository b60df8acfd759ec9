import APIKitParsers
import Foundation
import Testing

@Suite("FormURLEncodedDataParser")
struct FormURLEncodedDataParserTests {
    private func parse(_ body: String, duplicateKeys: FormURLEncodedDataParser.DuplicateKeyPolicy = .fail) throws
        -> [String: String]
    {
        try FormURLEncodedDataParser(duplicateKeys: duplicateKeys).parse(data: Data(body.utf8))
    }

    private func failure(_ body: Data, duplicateKeys: FormURLEncodedDataParser.DuplicateKeyPolicy = .fail) throws
        -> ParsingError
    {
        try #require(throws: ParsingError.self) {
            try FormURLEncodedDataParser(duplicateKeys: duplicateKeys).parse(data: body)
        }
    }

    @Test("asks for application/x-www-form-urlencoded and fails on duplicates by default")
    func defaults() {
        let parser = FormURLEncodedDataParser()
        #expect(parser.contentType == "application/x-www-form-urlencoded")
        #expect(throws: ParsingError.self) { try parser.parse(data: Data("a=1&a=2".utf8)) }
    }

    @Test("parses the combined example")
    func combinedExample() throws {
        #expect(try parse("a+b%2Bc=%E2%9C%93&flag&x=1=2") == ["a b+c": "✓", "flag": "", "x": "1=2"])
    }

    @Test("parses an empty body as no fields")
    func emptyBody() throws {
        #expect(try FormURLEncodedDataParser().parse(data: Data()) == [:])
    }

    @Test(
        "splits pairs on & and skips empty segments", arguments: ["a=1&&b=2", "a=1&b=2&", "&a=1&b=2", "&&a=1&&&b=2&&"])
    func emptySegments(body: String) throws {
        #expect(try parse(body) == ["a": "1", "b": "2"])
    }

    @Test("parses bodies made only of separators as no fields", arguments: ["&", "&&&"])
    func onlySeparators(body: String) throws {
        #expect(try parse(body) == [:])
    }

    @Test("splits a pair on its first =")
    func firstEquals() throws {
        #expect(try parse("a=b=c") == ["a": "b=c"])
        #expect(try parse("a==") == ["a": "="])
        #expect(try parse("a=") == ["a": ""])
        #expect(try parse("=x") == ["": "x"])
        #expect(try parse("token=abc%3D%3D") == ["token": "abc=="])
    }

    @Test("gives a key without = the empty value")
    func keyWithoutValue() throws {
        #expect(try parse("flag") == ["flag": ""])
        #expect(try parse("a&b=1") == ["a": "", "b": "1"])
    }

    @Test("turns + into a space before percent-decoding")
    func plusAndPercent() throws {
        #expect(try parse("q=a+b") == ["q": "a b"])
        #expect(try parse("q=a%2Bb") == ["q": "a+b"])
        #expect(try parse("q=a%20b") == ["q": "a b"])
        #expect(try parse("q=%2b%2B") == ["q": "++"])
        #expect(try parse("q=%25") == ["q": "%"])
        #expect(try parse("q=%2525") == ["q": "%25"])
        #expect(try parse("%26=%3D") == ["&": "="])
    }

    @Test("decodes multi-byte UTF-8, escaped or not")
    func utf8() throws {
        #expect(try parse("check=%E2%9C%93") == ["check": "✓"])
        #expect(try parse("name=%E6%97%A5%E6%9C%AC") == ["name": "日本"])
        #expect(try parse("emoji=%F0%9F%98%80") == ["emoji": "😀"])
        #expect(try parse("raw=日本&mixed=%E6%97%A5本") == ["raw": "日本", "mixed": "日本"])
    }

    @Test(
        "rejects malformed percent-escapes, naming the escape and the segment's position",
        arguments: [
            ("a=%zz", #"invalid percent-escape "%zz" in value 1"#),
            ("a=1&b=2&c%zz=3", #"invalid percent-escape "%zz" in key 3"#),
            ("a=%4", #"invalid percent-escape "%4" in value 1"#),
            ("a=%", #"invalid percent-escape "%" in value 1"#),
            ("a=1&%", #"invalid percent-escape "%" in key 2"#),
            ("a=1&&b=x%G1", #"invalid percent-escape "%G1" in value 3"#),
            ("a=%%41", #"invalid percent-escape "%%4" in value 1"#),
            ("a=% 1", "invalid percent-escape in value 1"),
        ]
    )
    func malformedEscapes(body: String, problem: String) throws {
        let error = try failure(Data(body.utf8))
        #expect(error.reason == .malformedFormData(problem))
        #expect(error.parser == "FormURLEncodedDataParser")
        #expect(error.bodyLength == body.utf8.count)
    }

    @Test("rejects escapes that decode to invalid UTF-8")
    func invalidDecodedUTF8() throws {
        #expect(try failure(Data("a=%FF".utf8)).reason == .malformedFormData("value 1 is not valid UTF-8"))
        #expect(try failure(Data("ok=1&%E2%9C=1".utf8)).reason == .malformedFormData("key 2 is not valid UTF-8"))
        #expect(try failure(Data("a=%C0%80".utf8)).reason == .malformedFormData("value 1 is not valid UTF-8"))
    }

    @Test("rejects a body that is not UTF-8")
    func invalidBody() throws {
        let body = Data("a=1&b=".utf8) + Data([0xFF, 0xFE])
        #expect(try failure(body).reason == .malformedFormData("value 2 is not valid UTF-8"))
        #expect(
            try failure(Data([0xE2, 0x9C]) + Data("=1".utf8)).reason == .malformedFormData("key 1 is not valid UTF-8"))
    }

    @Test("does not put the offending content in the error")
    func errorHidesContent() throws {
        let error = try failure(Data("user=ada&password=SECRET%zzVALUE".utf8))
        #expect(!error.description.contains("SECRET"))
        #expect(!error.description.contains("VALUE"))
        #expect(error.description.contains("value 2"))
    }

    @Test("fails on a duplicate key by default")
    func duplicateFail() throws {
        let error = try failure(Data("tag=a&other=1&tag=b".utf8))
        #expect(error.reason == .duplicateKey("tag"))
    }

    @Test("compares keys after decoding when looking for duplicates")
    func duplicateAfterDecoding() throws {
        #expect(try failure(Data("a+b=1&a%20b=2".utf8)).reason == .duplicateKey("a b"))
        #expect(try failure(Data("flag&flag=".utf8)).reason == .duplicateKey("flag"))
    }

    @Test("keeps the first or the last value as asked")
    func duplicatePolicies() throws {
        let body = "tag=a&other=1&tag=b&tag=c"
        #expect(try parse(body, duplicateKeys: .useFirst) == ["tag": "a", "other": "1"])
        #expect(try parse(body, duplicateKeys: .useLast) == ["tag": "c", "other": "1"])
    }

    @Test("returns fields or throws ParsingError for random bytes, never anything else")
    func randomBytes() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = Array("%&=+aZ09".utf8) + [0x20, 0xC3, 0xA9, 0xE2, 0x9C, 0x93, 0xFF]
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...24, using: &generator)
            let body = Data((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? 0x61 })
            do {
                let fields = try FormURLEncodedDataParser(duplicateKeys: .useLast).parse(data: body)
                #expect(fields.count <= body.count + 1)
            } catch let error as ParsingError {
                guard case .malformedFormData = error.reason else {
                    Issue.record("unexpected reason \(error.reason) for \(Array(body))")
                    continue
                }
            }
        }
    }

    @Test("parses a sliced body")
    func slicedBody() throws {
        let body = Data("xxa=1&b=%E2%9C%93".utf8).dropFirst(2)
        #expect(try FormURLEncodedDataParser().parse(data: body) == ["a": "1", "b": "✓"])
    }
}
