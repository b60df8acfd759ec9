import APIKitParsers
import Foundation
import Testing

@Suite("JSONValue description")
struct JSONValueDescriptionTests {
    @Test("prints compact JSON with sorted keys")
    func compact() {
        let value: JSONValue = ["b": [1, 2.5, "x"], "a": .null, "c": ["z": true, "y": false]]
        #expect(value.description == #"{"a":null,"b":[1,2.5,"x"],"c":{"y":false,"z":true}}"#)
        #expect("\(value)" == value.description)
        #expect(JSONValue.array([]).description == "[]")
        #expect(JSONValue.object([:]).description == "{}")
        #expect(JSONValue.integer(.min).description == "-9223372036854775808")
    }

    @Test("escapes strings and keys as JSON requires")
    func escapes() {
        let value: JSONValue = ["k\"\n": "q\" b\\ n\n r\r t\t \u{8}\u{C}\u{0}\u{1F} é😀 \u{7F}"]
        #expect(
            value.description == #"{"k\"\n":"q\" b\\ n\n r\r t\t \b\f\u0000\u001F é😀 \#u{7F}"}"#)
    }

    @Test("what it prints parses back to the same value")
    func roundTrips() throws {
        let value: JSONValue = [
            "a": [1, 2.5, -0.5, 1e-7, .double(1e29), true, .null], "s": "\u{1}\"\\/\u{2028}", "n": ["m": [[:]]],
        ]
        #expect(try JSONParser<JSONValue>().parse(data: Data(value.description.utf8)) == value)
    }

    @Test("non-finite doubles, which JSON lacks, print as Swift prints them")
    func nonFinite() {
        #expect(
            JSONValue.array([.double(.nan), .double(.infinity), .double(-.infinity)]).description == "[nan,inf,-inf]")
    }
}
