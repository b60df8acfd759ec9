import APIKit
import Foundation
import Testing

@Suite("@JSONBody and @DataBody")
struct WholeBodyTests {
    struct Item: Encodable, Sendable {
        var id: Int
        var name: String
    }

    struct Items: RequestConfiguration, Sendable {
        @JSONBody var items = [Item(id: 1, name: "a/b"), Item(id: 2, name: "東京")]
        @Query("dry_run") var dryRun = true
    }

    @Test("a whole JSON body may be a top-level array")
    func array() throws {
        let request = try urlRequest(Items(), method: .post)
        #expect(request.bodyText == #"[{"id":1,"name":"a/b"},{"id":2,"name":"東京"}]"#)
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.percentEncodedQuery == "dry_run=true")
    }

    struct Fragment<Value: Encodable & Sendable>: RequestConfiguration, Sendable {
        @JSONBody var value: Value
        init(_ value: Value) { _value = JSONBody(wrappedValue: value) }
    }

    @Test("fragments are whole JSON bodies too; nil sends no body")
    func fragments() throws {
        #expect(try urlRequest(Fragment("a\"b"), method: .put).bodyText == #""a\"b""#)
        #expect(try urlRequest(Fragment(42), method: .put).bodyText == "42")
        #expect(try urlRequest(Fragment(2.5), method: .put).bodyText == "2.5")
        #expect(try urlRequest(Fragment(false), method: .put).bodyText == "false")
        #expect(try urlRequest(Fragment(["b": 1, "a": 2]), method: .put).bodyText == #"{"a":2,"b":1}"#)
        let none = try urlRequest(Fragment(Int?.none), method: .put)
        #expect(none.httpBody == nil)
        #expect(none.header("Content-Type") == nil)
    }

    struct Mixed: RequestConfiguration, Sendable {
        @JSONBody var whole = [1]
        @JSON("x") var x = 1
    }

    struct TwoWholes: RequestConfiguration, Sendable {
        @JSONBody var first = [1]
        @DataBody("text/plain") var second: Data? = Data("x".utf8)
    }

    struct TwoJSONBodies: RequestConfiguration, Sendable {
        @JSONBody var first = [1]
        @JSONBody var second = [2]
    }

    @Test("a whole body must be the only body parameter", arguments: [0, 1, 2])
    func conflicts(case index: Int) throws {
        let error: BuildError? =
            switch index {
            case 0: buildError(Mixed(), method: .post)
            case 1: buildError(TwoWholes(), method: .post)
            default: buildError(TwoJSONBodies(), method: .post)
            }
        guard case .conflictingBodies(let first, let second) = try #require(error) else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect([first, second] == (index == 0 ? ["whole", "x"] : ["first", "second"]))
    }

    struct Upload: RequestConfiguration, Sendable {
        @DataBody("image/png") var image: Data? = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
    }

    @Test("a data body is sent as it is, with its content type")
    func data() throws {
        let request = try urlRequest(Upload(), method: .post)
        #expect(request.httpBody == Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]))
        #expect(request.header("Content-Type") == "image/png")
        let none = try urlRequest(Upload(image: nil), method: .post)
        #expect(none.httpBody == nil && none.header("Content-Type") == nil)
    }

    struct Overridden: RequestConfiguration, Sendable {
        @DataBody("image/png") var image: Data? = Data([1])
        @Header("Content-Type") var type = "image/apng"
    }

    struct BadType: RequestConfiguration, Sendable {
        @DataBody("text/plain\r\nX-Evil: 1") var body: Data? = Data([1])
    }

    @Test("a declared Content-Type wins; a content type with CR/LF is an error")
    func contentType() throws {
        #expect(try urlRequest(Overridden(), method: .post).header("Content-Type") == "image/apng")
        let error = try #require(buildError(BadType(), method: .post))
        guard case .invalidHeaderValue(name: "Content-Type", field: "body") = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    @propertyWrapper
    struct Text: BodyProtocol {
        var wrappedValue: String
        var bodyParameters: [BodyParameter] {
            [BodyParameter(key: "", value: wrappedValue, encoding: .raw(contentType: "text/plain"))]
        }
    }

    struct NotData: RequestConfiguration, Sendable {
        @Text var text = "hello"
    }

    @Test("a raw body whose value is not Data is an error naming the type")
    func notData() throws {
        let error = try #require(buildError(NotData(), method: .post))
        guard case .unsupportedValue(field: "text", key: "", reason: .notData("String")) = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    struct Failing: Encodable, Sendable {
        struct Boom: Error {}
        func encode(to encoder: any Encoder) throws { throw Boom() }
    }

    struct ThrowingWhole: RequestConfiguration, Sendable {
        @JSONBody var whole = Failing()
    }

    struct InfiniteWhole: RequestConfiguration, Sendable {
        @JSONBody var whole = [1, Double.infinity]
    }

    @Test("a whole JSON body that fails to encode is a build error naming its field, with the encoder's error")
    func encodingFails() throws {
        let error = try #require(buildError(ThrowingWhole(), method: .post))
        guard case .valueEncodingFailed(field: "whole", key: "", let underlying) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(underlying is Failing.Boom)
        let infinite = try #require(buildError(InfiniteWhole(), method: .post))
        guard case .valueEncodingFailed(field: "whole", key: "", _) = infinite else {
            Issue.record("unexpected \(infinite)")
            return
        }
    }
}

@Suite("@JSONBody strategy")
struct JSONBodyStrategyTests {
    struct Event: Encodable, Sendable {
        var at: Date
        var done: Bool
    }

    struct Events: RequestConfiguration, Sendable {
        @JSONBody(strategy: .init(bools: .numeric, dates: .secondsSince1970)) var events = [
            Event(at: Date(timeIntervalSince1970: 86_400), done: true)
        ]
    }

    struct Inherits: RequestConfiguration, Sendable {
        @JSONBody var events = [Event(at: Date(timeIntervalSince1970: 86_400), done: true)]
    }

    @Test("a @JSONBody takes a strategy: like the other value wrappers; without one it inherits the request's")
    func strategy() throws {
        #expect(try urlRequest(Events(), method: .post).bodyText == #"[{"at":86400,"done":1}]"#)
        #expect(
            try urlRequest(Inherits(), method: .post, strategy: .init(dates: .millisecondsSince1970)).bodyText
                == #"[{"at":86400000,"done":true}]"#)
        #expect(try urlRequest(Inherits(), method: .post).bodyText == #"[{"at":"1970-01-02T00:00:00Z","done":true}]"#)
    }
}

@Suite("@JSONBody strategy: what applies to a whole JSON body")
struct JSONBodyStrategyScopeTests {
    struct Item: Encodable, Sendable {
        var note: String?
        var tags: [String]
        var filter: [String: Int]
    }

    struct Nulls: RequestConfiguration, Sendable {
        @JSONBody(strategy: .init(arrays: .indexed, nesting: .dotted, nils: .null)) var items = [
            Item(note: nil, tags: ["a", "b"], filter: ["x": 1])
        ]
    }

    struct Omits: RequestConfiguration, Sendable {
        @JSONBody var items = [Item(note: nil, tags: ["a"], filter: [:])]
    }

    @Test("the nil, array and nesting strategies do not change a whole JSON body: nil members follow encode(to:)")
    func nilsArraysNesting() throws {
        let nulls = try urlRequest(Nulls(), method: .post).bodyText
        #expect(nulls == #"[{"filter":{"x":1},"tags":["a","b"]}]"#, "synthesized Encodable leaves nil out")
        #expect(try urlRequest(Omits(), method: .post).bodyText == #"[{"filter":{},"tags":["a"]}]"#)
    }
}
