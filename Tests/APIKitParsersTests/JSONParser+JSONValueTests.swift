import APIKitParsers
import Foundation
import Testing

@Suite("JSONParser<JSONValue> and JSONParser<[String: JSONValue]>: JSON without a declared type")
struct JSONParserJSONValueTests {
    func parse(_ json: String) throws -> JSONValue {
        try JSONParser<JSONValue>().parse(data: Data(json.utf8))
    }

    @Test("asks for application/json")
    func contentType() {
        #expect(JSONParser<JSONValue>().contentType == "application/json")
    }

    @Test("reads a nested document and navigates it")
    func nested() throws {
        let value = try parse(#"{"user": {"id": 7, "tags": ["a", "b"], "ratio": 0.5, "admin": false, "boss": null}}"#)
        #expect(value["user"]?["tags"]?[0]?.stringValue == "a")
        #expect(value["user"]?["id"]?.intValue == 7)
        #expect(value["user"]?["ratio"]?.doubleValue == 0.5)
        #expect(value["user"]?["admin"]?.boolValue == false)
        #expect(value["user"]?["boss"] == .null)
        #expect(value["user"]?["missing"]?[3] == nil)
    }

    @Test("reads any top-level value")
    func topLevel() throws {
        #expect(try parse("42") == .integer(42))
        #expect(try parse(#""abc""#) == .string("abc"))
        #expect(try parse(" true ") == .bool(true))
        #expect(try parse("null") == .null)
        #expect(try parse("[1, true, 1.5, null]") == [1, true, 1.5, .null])
    }

    @Test("keeps true apart from 1, and 1.0 equal to 1")
    func booleansAndNumbers() throws {
        let value = try parse("[true, 1, 1.0, 0, false]")
        #expect(value[0] == .bool(true))
        #expect(value[1] == .integer(1))
        #expect(value[0] != value[1])
        #expect(value[1] == value[2])
        #expect(value[3] != value[4])
        #expect(value[1]?.boolValue == nil)
    }

    @Test("keeps large integers exact")
    func largeIntegers() throws {
        let value = try parse(#"{"id": 9007199254740993, "max": 9223372036854775807}"#)
        #expect(value["id"] == .integer(9_007_199_254_740_993))
        #expect(value["max"] == .integer(.max))
        #expect(value["id"]?.intValue == 9_007_199_254_740_993)
    }

    @Test("a body repeating a key keeps one value (on Linux, the first)")
    func duplicateKeys() throws {
        let value = try parse(#"{"a": 1, "a": 2}"#)
        #expect(value.objectValue?.count == 1)
        #if os(Linux)
            #expect(value["a"] == 1)
        #endif
    }

    @Test("rejects an empty body as emptyBody, naming JSONParser<JSONValue>")
    func emptyBody() throws {
        let error = try #require(throws: ParsingError.self) { try JSONParser<JSONValue>().parse(data: Data()) }
        #expect(error.reason == .emptyBody)
        #expect(error.parser == "JSONParser<JSONValue>")
        #expect(error.bodyLength == 0)
        #expect(error.underlyingError == nil)
    }

    @Test(
        "reports syntax errors as invalidJSON",
        arguments: [#"{"id": 1,"#, "nope", "   ", #"{"id": 1} trailing"#, "<html></html>", "[1, 2", "NaN", "'a'"]
    )
    func invalidJSON(body: String) throws {
        let error = try #require(throws: ParsingError.self) { try parse(body) }
        #expect(error.reason == .invalidJSON)
        #expect(error.parser == "JSONParser<JSONValue>")
        #expect(error.codingPath.isEmpty)
        #expect(error.underlyingError is DecodingError)
        #expect(error.bodyLength == body.utf8.count)
    }

    @Test("rejects invalid UTF-8 and lone surrogates as invalidJSON")
    func invalidText() throws {
        for body in [Data([0x22, 0xC3, 0x28, 0x22]), Data([0x5B, 0xFF, 0x5D]), Data(#""\ud800""#.utf8)] {
            let error = try #require(throws: ParsingError.self) { try JSONParser<JSONValue>().parse(data: body) }
            #expect(error.reason == .invalidJSON)
        }
    }

    @Test("skips a UTF-8 byte order mark and reads UTF-16 bodies")
    func byteOrderMarkAndUTF16() throws {
        #expect(
            try JSONParser<JSONValue>().parse(data: Data([0xEF, 0xBB, 0xBF]) + Data(#"{"a": 1}"#.utf8)) == ["a": 1])
        let utf16 = Data(#"{"a": "é"}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(try JSONParser<JSONValue>().parse(data: Data([0xFF, 0xFE]) + utf16) == ["a": "é"])
    }

    @Test("reads 512 levels of nesting and rejects 513 as invalidJSON")
    func nestingLimit() throws {
        func nested(_ depth: Int) -> Data {
            Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        }
        var value = try JSONParser<JSONValue>().parse(data: nested(512))
        var depth = 1
        while let inner = value[0] {
            value = inner
            depth += 1
        }
        #expect(depth == 512)
        #expect(value == [])
        let error = try #require(throws: ParsingError.self) { try JSONParser<JSONValue>().parse(data: nested(513)) }
        #expect(error.reason == .invalidJSON)
        let deep = Data(String(repeating: #"{"a":"#, count: 10_000).utf8)
        #expect(throws: ParsingError.self) { try JSONParser<JSONValue>().parse(data: deep) }
    }

    @Test("reports a number beyond Double as dataCorrupted at its coding path")
    func hugeNumbers() throws {
        let error = try #require(throws: ParsingError.self) { try parse(#"{"a": [1, 1e999]}"#) }
        #expect(error.reason == .dataCorrupted)
        #expect(error.codingPath == ["a", "Index 1"])
        #expect(error.underlyingError is DecodingError)
        #expect(try parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
        #expect(try parse("1e-999") == .integer(0))
    }

    @Test("never puts the body in the error's description")
    func descriptionHidesBody() throws {
        let body = Data(#"{"token": "sk_live_SUPERSECRET", "n": 1e999}"#.utf8)
        let error = try #require(throws: ParsingError.self) { try JSONParser<JSONValue>().parse(data: body) }
        #expect(!error.description.contains("SUPERSECRET"))
        #expect(error.description.contains("JSONParser<JSONValue>"))
    }

    // A body that must be an object: `[String: JSONValue]`.

    @Test("[String: JSONValue] reads a top-level object into its members, the same as JSONValue's")
    func object() throws {
        let body = Data(#"{"data": {"id": "abc", "n": [1, true, 1.5, null]}, "ok": true}"#.utf8)
        let members = try JSONParser<[String: JSONValue]>().parse(data: body)
        #expect(members.count == 2)
        #expect(members["ok"] == true)
        #expect(members["data"]?["id"]?.stringValue == "abc")
        #expect(members["data"]?["n"] == [1, true, 1.5, .null])
        #expect(try .object(members) == JSONParser<JSONValue>().parse(data: body))
        #expect(try JSONParser<[String: JSONValue]>().parse(data: Data("{}".utf8)).isEmpty)
    }

    @Test(
        "[String: JSONValue] rejects a top level that is not an object as typeMismatch, null as valueNotFound",
        arguments: ["[1, 2]", "42", #""text""#, "true", "null"]
    )
    func notAnObject(body: String) throws {
        let error = try #require(throws: ParsingError.self) {
            try JSONParser<[String: JSONValue]>().parse(data: Data(body.utf8))
        }
        let expected: ParsingError.Reason =
            body == "null"
            ? .valueNotFound(expected: "Dictionary<String, Any>") : .typeMismatch(expected: "Dictionary<String, Any>")
        #expect(error.reason == expected)
        #expect(error.parser == "JSONParser<Dictionary<String, JSONValue>>")
        #expect(error.codingPath.isEmpty)
        #expect(error.underlyingError is DecodingError)
    }
}
