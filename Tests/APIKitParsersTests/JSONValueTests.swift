import APIKitParsers
import Foundation
import Testing

@Suite("JSONValue")
struct JSONValueTests {
    func requireSendable<T: Sendable>(_: T.Type) {}

    @Test("JSONValue and the new parsers are Sendable")
    func sendable() {
        requireSendable(JSONValue.self)
        requireSendable(JSONParser<JSONValue>.self)
        requireSendable([String: JSONValue].self)
    }

    @Test("values of different kinds are never equal: true is not 1, \"1\" is not 1, null is not 0")
    func kindsDiffer() {
        let values: [JSONValue] = [
            .null, .bool(true), .bool(false), .integer(1), .integer(0), .string("1"), .array([]), .object([:]),
        ]
        for (i, left) in values.enumerated() {
            for (j, right) in values.enumerated() {
                #expect((left == right) == (i == j), "\(left) vs \(right)")
            }
        }
    }

    @Test("every kind hashes as it compares: equal copies hash alike, and a set keeps each distinct value once")
    func hashingFollowsEquality() {
        let values: [JSONValue] = [
            .null, .bool(true), .bool(false), .integer(1), .integer(0), .double(1.5), .double(-2.25), .string("1"),
            .string(""), .array([]), .array([.string("1")]), .object([:]), .object(["1": .null]),
        ]
        // each built again, not copied: what is hashed is the value, not an identity
        let again: [JSONValue] = [
            .null, .bool(true), .bool(false), .integer(1), .integer(0), .double(1.5), .double(-2.25),
            .string(String("1")), .string(String()), .array([]), .array([.string("1")]), .object([:]),
            .object(["1": .null]),
        ]
        for (value, copy) in zip(values, again) {
            #expect(value == copy)
            #expect(value.hashValue == copy.hashValue, "\(value)")
        }
        #expect(Set(values + again).count == values.count)
        // a hash that ignored a kind's value would put these in one bucket (one chance in 2^64 of a clash)
        let apart: [(JSONValue, JSONValue)] = [
            (.bool(true), .bool(false)), (.double(1.5), .double(-2.25)), (.string("1"), .string("")),
            (.array([]), .array([.null])), (.object([:]), .object(["1": .null])),
        ]
        for (left, right) in apart {
            #expect(left.hashValue != right.hashValue, "\(left) and \(right)")
        }
    }

    @Test("numbers compare by value: .integer(1) equals .double(1.0), and both hash alike")
    func numbersCompareByValue() {
        #expect(JSONValue.integer(1) == .double(1.0))
        #expect(JSONValue.double(1.0) == .integer(1))
        #expect(JSONValue.integer(0) == .double(-0.0))
        #expect(JSONValue.integer(1) != .double(1.5))
        #expect(Set<JSONValue>([.integer(1), .double(1.0), .integer(0), .double(-0.0)]).count == 2)
        #expect(JSONValue.integer(1).hashValue == JSONValue.double(1.0).hashValue)
        #expect(JSONValue.array([.integer(2)]) == .array([.double(2)]))
        #expect(JSONValue.object(["a": .integer(2)]).hashValue == JSONValue.object(["a": .double(2)]).hashValue)
    }

    @Test("an integer beyond 2^53 is not equal to the Double it rounds to")
    func largeIntegersStayExact() {
        let exact: Int64 = 9_007_199_254_740_993
        #expect(JSONValue.integer(exact) != .double(Double(exact)))
        #expect(JSONValue.integer(exact - 1) == .double(Double(exact)))
        #expect(JSONValue.integer(.max) != .double(Double(Int64.max)))  // 2^63 is beyond Int64
    }

    @Test("objects are equal whatever their insertion order")
    func objectOrderIgnored() {
        var first: [String: JSONValue] = [:]
        first["a"] = 1
        first["b"] = 2
        var second: [String: JSONValue] = [:]
        second["b"] = 2
        second["a"] = 1
        #expect(JSONValue.object(first) == .object(second))
        #expect(JSONValue.object(first).hashValue == JSONValue.object(second).hashValue)
    }

    @Test("literals build the matching cases")
    func literals() {
        let value: JSONValue = ["s": "x", "i": 42, "d": 0.5, "b": true, "n": .null, "a": [1, "two"]]
        #expect(
            value
                == .object([
                    "s": .string("x"), "i": .integer(42), "d": .double(0.5), "b": .bool(true), "n": .null,
                    "a": .array([.integer(1), .string("two")]),
                ]))
        let negative: JSONValue = -9_223_372_036_854_775_808
        #expect(negative == .integer(.min))
        let float: JSONValue = 1.0
        guard case .double(1.0) = float else {
            Issue.record("a float literal should give .double, got \(float)")
            return
        }
    }

    @Test("a dictionary literal that repeats a key keeps the last value instead of trapping")
    func duplicateLiteralKey() {
        let value: JSONValue = ["a": 1, "a": 2]
        #expect(value == ["a": 2])
    }
}
