import APIKitParsers
import Testing

@Suite("JSONValue accessors")
struct JSONValueAccessorsTests {
    static let document: JSONValue = [
        "user": ["id": 7, "name": "Ada", "tags": ["a", "b"], "manager": .null, "score": 2.5],
        "items": [[10, 20], ["k": true]],
    ]

    @Test("navigates by key and index")
    func navigates() {
        let value = Self.document
        #expect(value["user"]?["tags"]?[0] == "a")
        #expect(value["user"]?["tags"]?[1]?.stringValue == "b")
        #expect(value["items"]?[0]?[1]?.intValue == 20)
        #expect(value["items"]?[1]?["k"]?.boolValue == true)
    }

    @Test("a missing step gives nil, never a trap")
    func missingSteps() {
        let value = Self.document
        #expect(value["nope"] == nil)
        #expect(value["user"]?["tags"]?[2] == nil)
        #expect(value["user"]?["tags"]?[-1] == nil)
        #expect(value["user"]?["tags"]?[Int.max] == nil)
        #expect(value["user"]?["tags"]?[Int.min] == nil)
        #expect(value["user"]?[0] == nil)  // an object has no positions
        #expect(value["items"]?["0"] == nil)  // an array has no keys
        #expect(JSONValue.string("abc")[0] == nil)
        #expect(JSONValue.null["a"] == nil)
        #expect(JSONValue.integer(3)[0] == nil)
    }

    @Test("a member that is null is .null, not nil")
    func nullMember() {
        #expect(Self.document["user"]?["manager"] == .null)
        #expect(Self.document["user"]?["id"] != .null)
    }

    @Test("stringValue reads strings only")
    func stringValue() {
        #expect(JSONValue.string("x").stringValue == "x")
        #expect(JSONValue.integer(1).stringValue == nil)
        #expect(JSONValue.bool(true).stringValue == nil)
        #expect(JSONValue.null.stringValue == nil)
    }

    @Test("intValue reads numbers that are exactly an Int, from either case")
    func intValue() {
        #expect(JSONValue.integer(7).intValue == 7)
        #expect(JSONValue.integer(.min).intValue == Int(exactly: Int64.min))
        #expect(JSONValue.double(7.0).intValue == 7)
        #expect(JSONValue.double(-0.0).intValue == 0)
        #expect(JSONValue.double(7.5).intValue == nil)
        #expect(JSONValue.double(1e30).intValue == nil)
        #expect(JSONValue.double(.infinity).intValue == nil)
        #expect(JSONValue.double(.nan).intValue == nil)
        #expect(JSONValue.bool(true).intValue == nil)
        #expect(JSONValue.string("7").intValue == nil)
    }

    @Test("doubleValue reads both number cases, integers rounded to the nearest Double")
    func doubleValue() {
        #expect(JSONValue.double(2.5).doubleValue == 2.5)
        #expect(JSONValue.integer(3).doubleValue == 3.0)
        #expect(JSONValue.integer(9_007_199_254_740_993).doubleValue == 9_007_199_254_740_992.0)
        #expect(JSONValue.bool(false).doubleValue == nil)
        #expect(JSONValue.string("2.5").doubleValue == nil)
    }

    @Test("boolValue reads true and false only, never a number")
    func boolValue() {
        #expect(JSONValue.bool(true).boolValue == true)
        #expect(JSONValue.bool(false).boolValue == false)
        #expect(JSONValue.integer(1).boolValue == nil)
        #expect(JSONValue.integer(0).boolValue == nil)
        #expect(JSONValue.string("true").boolValue == nil)
    }

    @Test("arrayValue and objectValue read their own case only; null equals only null")
    func containers() {
        #expect(JSONValue.array([1]).arrayValue == [1])
        #expect(JSONValue.object(["a": 1]).arrayValue == nil)
        #expect(JSONValue.object(["a": 1]).objectValue == ["a": 1])
        #expect(JSONValue.array([]).objectValue == nil)
        #expect(JSONValue.null == .null)
        #expect(JSONValue.integer(0) != .null)
        #expect(JSONValue.string("") != .null)
        #expect(JSONValue.bool(false) != .null)
    }
}
