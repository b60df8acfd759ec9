import Foundation
import Testing

@testable import APIKitParsers

@Suite("ParsingError")
struct ParsingErrorTests {
    struct Wrapped: Error {}

    @Test("captures the parser name, the prefix and the length of the body")
    func capturesBody() throws {
        let body = Data((0..<200).map { UInt8($0) })
        let error = ParsingError(
            .dataCorrupted, parser: JSONParser<[Int]>.self, codingPath: ["a"], body: body, underlyingError: Wrapped())
        #expect(error.parser == "JSONParser<Array<Int>>")
        #expect(error.bodyPrefix == Data((0..<128).map { UInt8($0) }))
        #expect(error.bodyLength == 200)
        #expect(error.codingPath == ["a"])
        #expect(error.underlyingError is Wrapped)
        #expect(error.reason == .dataCorrupted)
    }

    @Test("copies the prefix of a sliced body into indices from zero")
    func prefixOfSlice() {
        let body = Data("0123456789".utf8).dropFirst(4)
        let error = ParsingError(.emptyBody, parser: RawDataParser.self, body: body)
        #expect(error.bodyPrefix == Data("456789".utf8))
        #expect(error.bodyPrefix.startIndex == 0)
        #expect(error.bodyLength == 6)
    }

    @Test(
        "describes each reason with the parser and the body length",
        arguments: [
            (ParsingError.Reason.emptyBody, "the body is empty"),
            (.invalidJSON, "the body is not valid JSON"),
            (.typeMismatch(expected: "Int"), "type mismatch, expected Int"),
            (.valueNotFound(expected: "String"), "value not found, expected String"),
            (.keyNotFound("name"), #"key "name" not found"#),
            (.dataCorrupted, "the data is corrupted"),
            (.invalidTextEncoding("UTF-8"), "the body is not valid UTF-8 text"),
            (
                .malformedFormData(#"invalid percent-escape "%zz" in key 3"#),
                #"malformed form data: invalid percent-escape "%zz" in key 3"#
            ),
            (.duplicateKey("a"), #"duplicate key "a""#),
        ]
    )
    func describesReason(reason: ParsingError.Reason, phrase: String) {
        let error = ParsingError(reason, parser: StringParser.self, body: Data("hidden body".utf8))
        #expect(error.description == "StringParser could not parse the response body (11 bytes): \(phrase)")
        #expect(error.errorDescription == error.description)
        #expect(!error.description.contains("hidden"))
    }

    @Test("adds the coding path, and says byte for a one-byte body")
    func describesCodingPath() {
        let error = ParsingError(
            .typeMismatch(expected: "Int"), parser: JSONParser<Int>.self, codingPath: ["items", "Index 2", "id"],
            body: Data("x".utf8))
        #expect(
            error.description
                == #"JSONParser<Int> could not parse the response body (1 byte): type mismatch, expected Int, at coding path ["items", "Index 2", "id"]"#
        )
    }

    @Test("names keys without a string value by their index")
    func codingPathNames() {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) { self.stringValue = stringValue }
            init(intValue: Int) { self.stringValue = ""; self.intValue = intValue }
        }
        let path = ParsingError.codingPath(from: [Key(stringValue: "items"), Key(intValue: 3), Key(stringValue: "7")])
        #expect(path == ["items", "Index 3", "7"])
    }

    @Test("is usable as a LocalizedError")
    func localized() {
        let error: any Error = ParsingError(.emptyBody, parser: JSONParser<Int>.self, body: Data())
        #expect(
            error.localizedDescription
                == "JSONParser<Int> could not parse the response body (0 bytes): the body is empty")
    }
}
