import APIKitParsers
import Foundation
import Testing

@Suite("DictionaryParser")
struct DictionaryParserTests {
    @Test("asks for application/json")
    func contentType() {
        #expect(DictionaryParser().contentType == "application/json")
    }

    @Test("reads a top-level object into its members")
    func object() throws {
        let members = try DictionaryParser().parse(
            data: Data(#"{"data": {"id": "abc", "n": [1, true, 1.5, null]}, "ok": true}"#.utf8))
        #expect(members.count == 2)
        #expect(members["ok"] == true)
        #expect(members["data"]?["id"]?.stringValue == "abc")
        #expect(members["data"]?["n"] == [1, true, 1.5, .null])
        #expect(try DictionaryParser().parse(data: Data("{}".utf8)).isEmpty)
    }

    @Test("gives the same members as JSONValueParser")
    func sameAsJSONValueParser() throws {
        let body = Data(#"{"a": {"b": [9007199254740993, 0.25]}, "c": "d"}"#.utf8)
        #expect(try .object(DictionaryParser().parse(data: body)) == JSONValueParser().parse(data: body))
    }

    @Test(
        "rejects a top-level value that is not an object, as JSONDecoder names it",
        arguments: ["[1, 2]", "42", #""text""#, "true"]
    )
    func notAnObject(body: String) throws {
        let error = try #require(throws: ParsingError.self) { try DictionaryParser().parse(data: Data(body.utf8)) }
        #expect(error.reason == .typeMismatch(expected: "Dictionary<String, Any>"))
        #expect(error.parser == "DictionaryParser")
        #expect(error.codingPath.isEmpty)
        #expect(error.underlyingError is DecodingError)
    }

    @Test("rejects null as valueNotFound")
    func null() throws {
        let error = try #require(throws: ParsingError.self) { try DictionaryParser().parse(data: Data("null".utf8)) }
        #expect(error.reason == .valueNotFound(expected: "Dictionary<String, Any>"))
    }

    @Test("reports an empty body, invalid JSON and huge numbers as JSONValueParser does")
    func errors() throws {
        let empty = try #require(throws: ParsingError.self) { try DictionaryParser().parse(data: Data()) }
        #expect(empty.reason == .emptyBody)
        #expect(empty.parser == "DictionaryParser")
        let invalid = try #require(throws: ParsingError.self) {
            try DictionaryParser().parse(data: Data(#"{"a": "#.utf8))
        }
        #expect(invalid.reason == .invalidJSON)
        let notUTF8 = try #require(throws: ParsingError.self) {
            try DictionaryParser().parse(data: Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]))
        }
        #expect(notUTF8.reason == .invalidJSON)
        let huge = try #require(throws: ParsingError.self) {
            try DictionaryParser().parse(data: Data(#"{"a": {"b": -1e400}}"#.utf8))
        }
        #expect(huge.reason == .dataCorrupted)
        #expect(huge.codingPath == ["a", "b"])
    }

    @Test("skips a UTF-8 byte order mark")
    func byteOrderMark() throws {
        #expect(try DictionaryParser().parse(data: Data([0xEF, 0xBB, 0xBF]) + Data(#"{"a": 1}"#.utf8)) == ["a": 1])
    }
}
