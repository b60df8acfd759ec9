import APIKitParsers
import Foundation
import Testing

@Suite("JSONValue Codable")
struct JSONValueCodableTests {
    func decoded(_ json: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    }

    @Test("true and false are booleans; 1 and 0 are integers, never booleans")
    func booleansAndNumbersStayApart() throws {
        let value = try decoded("[true, 1, false, 0]")
        guard case .array(let elements) = value, elements.count == 4 else {
            Issue.record("expected four elements, got \(value)")
            return
        }
        guard case .bool(true) = elements[0], case .integer(1) = elements[1], case .bool(false) = elements[2],
            case .integer(0) = elements[3]
        else {
            Issue.record("true/1/false/0 were confused: \(elements)")
            return
        }
    }

    @Test("integers stay exact up to the Int64 bounds, beyond 2^53")
    func exactIntegers() throws {
        guard case .integer(9_007_199_254_740_993) = try decoded("9007199254740993") else {
            Issue.record("2^53 + 1 lost precision")
            return
        }
        guard case .integer(.max) = try decoded("9223372036854775807"),
            case .integer(.min) = try decoded("-9223372036854775808")
        else {
            Issue.record("the Int64 bounds were not kept exactly")
            return
        }
    }

    @Test("integers beyond Int64 become the nearest Double")
    func integersBeyondInt64() throws {
        guard case .double(let unsigned) = try decoded("18446744073709551615"),
            case .double(let huge) = try decoded("123456789012345678901234567890"),
            case .double(let belowMin) = try decoded("-9223372036854775809")
        else {
            Issue.record("integers beyond Int64 should be .double")
            return
        }
        #expect(unsigned == 18_446_744_073_709_551_615.0)
        #expect(huge == 1.2345678901234568e29)
        #expect(belowMin == -9_223_372_036_854_775_809.0)
    }

    @Test("fractions are doubles; 1.0 and 1e2 are the integers they equal")
    func fractionsAndIntegralForms() throws {
        guard case .double(0.1) = try decoded("0.1"), case .double(-2.5) = try decoded("-2.5"),
            case .double(.leastNonzeroMagnitude) = try decoded("5e-324")
        else {
            Issue.record("fractions should be .double")
            return
        }
        #expect(try decoded("1.0") == .integer(1))
        #expect(try decoded("1e2") == .integer(100))
        #expect(try decoded("1.0") == .double(1.0))
        #expect(try decoded("-0") == .integer(0))
    }

    @Test("a number beyond Double is dataCorrupted at its coding path")
    func numberBeyondDouble() throws {
        for json in [#"{"a": [1, 1e999]}"#, #"{"a": [1, -1e999]}"#] {
            let error = try #require(throws: DecodingError.self) { try decoded(json) }
            guard case .dataCorrupted(let context) = error else {
                Issue.record("expected dataCorrupted, got \(error)")
                continue
            }
            #expect(context.codingPath.map(\.stringValue) == ["a", "Index 1"])
        }
    }

    @Test("decodes strings, null, nested arrays and objects")
    func containers() throws {
        let value = try decoded(#"{"s": "caf\u00e9 😀", "n": null, "a": [[], {}, [null]], "o": {"k": {"k": "v"}}}"#)
        #expect(
            value
                == [
                    "s": "café 😀", "n": .null, "a": [[], [:], [.null]], "o": ["k": ["k": "v"]],
                ])
    }

    @Test("works as a property of a Decodable type")
    func asProperty() throws {
        struct Event: Codable, Equatable {
            var kind: String
            var payload: JSONValue
        }
        let event = try JSONDecoder().decode(Event.self, from: Data(#"{"kind": "x", "payload": {"n": [1, 2.5]}}"#.utf8))
        #expect(event == Event(kind: "x", payload: ["n": [1, 2.5]]))
        let missing = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(Event.self, from: Data(#"{"kind": "x"}"#.utf8))
        }
        guard case .keyNotFound(let key, _) = missing else {
            Issue.record("expected keyNotFound, got \(missing)")
            return
        }
        #expect(key.stringValue == "payload")
    }

    @Test("encodes each case as its JSON text, and round-trips")
    func encodes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let value: JSONValue = [
            "a": [1, 2.5, true, false, .null, "x"], "b": ["c": -9_223_372_036_854_775_808], "d": .double(1e29),
        ]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(text == #"{"a":[1,2.5,true,false,null,"x"],"b":{"c":-9223372036854775808},"d":1e+29}"#)
        #expect(try decoded(text) == value)
        #expect(String(decoding: try encoder.encode(JSONValue.string("s")), as: UTF8.self) == #""s""#)
    }

    @Test("a non-finite double cannot be encoded as JSON")
    func nonFinite() {
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try JSONEncoder().encode(JSONValue.array([.double(value)])) }
        }
    }
}
