import APIKitParsers
import Foundation
import Testing

@Suite("JSONParser")
struct JSONParserTests {
    struct Item: Decodable, Equatable {
        let id: Int
        let name: String
    }

    struct Catalog: Decodable, Equatable {
        struct Owner: Decodable, Equatable {
            let login: String
        }

        let owner: Owner
        let items: [Item]
    }

    struct Profile: Decodable, Equatable {
        let userId: Int
        let displayName: String
    }

    struct Event: Decodable {
        let at: Date
    }

    struct Even: Decodable {
        let value: Int

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            value = try container.decode(Int.self)
            guard value.isMultiple(of: 2) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "odd")
            }
        }
    }

    struct Rejected: Error {}

    struct Rejecting: Decodable {
        init(from decoder: any Decoder) throws {
            throw Rejected()
        }
    }

    @Test("asks for application/json")
    func contentType() {
        #expect(JSONParser<Item>().contentType == "application/json")
    }

    @Test("decodes a nested object")
    func nestedObject() throws {
        let body = Data(#"{"owner": {"login": "ada"}, "items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}"#.utf8)
        let catalog = try JSONParser<Catalog>().parse(data: body)
        #expect(
            catalog == Catalog(owner: .init(login: "ada"), items: [Item(id: 1, name: "a"), Item(id: 2, name: "b")]))
    }

    @Test("decodes top-level fragments")
    func fragments() throws {
        #expect(try JSONParser<String>().parse(data: Data(#""abc""#.utf8)) == "abc")
        #expect(try JSONParser<Int>().parse(data: Data("42".utf8)) == 42)
        #expect(try JSONParser<Bool>().parse(data: Data(" true ".utf8)) == true)
        #expect(try JSONParser<Int?>().parse(data: Data("null".utf8)) == nil)
    }

    @Test("rejects an empty body as emptyBody")
    func emptyBody() throws {
        let error = try #require(throws: ParsingError.self) {
            try JSONParser<Item>().parse(data: Data())
        }
        #expect(error.reason == .emptyBody)
        #expect(error.bodyLength == 0)
        #expect(error.bodyPrefix.isEmpty)
        #expect(error.codingPath.isEmpty)
        #expect(error.underlyingError == nil)
        #expect(error.parser == "JSONParser<Item>")
    }

    @Test("reports a type mismatch with its coding path")
    func typeMismatch() throws {
        let body = Data(
            #"{"owner": {"login": "ada"}, "items": [{"id": 1, "name": "a"}, {"id": "two", "name": "b"}]}"#.utf8)
        let error = try #require(throws: ParsingError.self) {
            try JSONParser<Catalog>().parse(data: body)
        }
        #expect(error.reason == .typeMismatch(expected: "Int"))
        #expect(error.codingPath == ["items", "Index 1", "id"])
        #expect(error.bodyLength == body.count)
        let underlying = try #require(error.underlyingError as? DecodingError)
        guard case .typeMismatch = underlying else {
            Issue.record("expected the original typeMismatch, got \(underlying)")
            return
        }
    }

    @Test("reports a missing key with the path of its object")
    func keyNotFound() throws {
        let body = Data(#"{"owner": {"login": "ada"}, "items": [{"id": 1}]}"#.utf8)
        let error = try #require(throws: ParsingError.self) {
            try JSONParser<Catalog>().parse(data: body)
        }
        #expect(error.reason == .keyNotFound("name"))
        #expect(error.codingPath == ["items", "Index 0"])
        #expect(error.underlyingError is DecodingError)
    }

    @Test("reports null for a non-optional value as valueNotFound")
    func valueNotFound() throws {
        let body = Data(#"{"owner": {"login": null}, "items": []}"#.utf8)
        let error = try #require(throws: ParsingError.self) {
            try JSONParser<Catalog>().parse(data: body)
        }
        #expect(error.reason == .valueNotFound(expected: "String"))
        #expect(error.codingPath == ["owner", "login"])
    }

    @Test("reports a value a type rejects as dataCorrupted, with its coding path")
    func dataCorrupted() throws {
        let error = try #require(throws: ParsingError.self) {
            try JSONParser<[String: [Even]]>().parse(data: Data(#"{"evens": [2, 3]}"#.utf8))
        }
        #expect(error.reason == .dataCorrupted)
        #expect(error.codingPath == ["evens", "Index 1"])
        #expect(error.underlyingError is DecodingError)
    }

    @Test("reports a date the decoder's strategy rejects as dataCorrupted")
    func dateDataCorrupted() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let event = try JSONParser<Event>(decoder: decoder).parse(data: Data(#"{"at": "2024-01-02T03:04:05Z"}"#.utf8))
        #expect(event.at == Date(timeIntervalSince1970: 1_704_164_645))
        let error = try #require(throws: ParsingError.self) {
            try JSONParser<Event>(decoder: decoder).parse(data: Data(#"{"at": "yesterday"}"#.utf8))
        }
        #expect(error.reason == .dataCorrupted)
    }

    @Test("a type rejecting a top-level value is dataCorrupted, not invalidJSON")
    func topLevelDataCorrupted() throws {
        #expect(try JSONParser<Even>().parse(data: Data("4".utf8)).value == 4)
        let error = try #require(throws: ParsingError.self) {
            try JSONParser<Even>().parse(data: Data("3".utf8))
        }
        #expect(error.reason == .dataCorrupted)
        #expect(error.codingPath.isEmpty)
    }

    @Test(
        "reports syntax errors as invalidJSON",
        arguments: [#"{"id": 1,"#, "nope", "   ", #"{"id": 1} trailing"#, "<html></html>", "[1, 2"]
    )
    func invalidJSON(body: String) throws {
        let error = try #require(throws: ParsingError.self) {
            try JSONParser<Item>().parse(data: Data(body.utf8))
        }
        #expect(error.reason == .invalidJSON)
        #expect(error.codingPath.isEmpty)
        #expect(error.underlyingError is DecodingError)
    }

    @Test("uses the injected decoder")
    func injectedDecoder() throws {
        let body = Data(#"{"user_id": 7, "display_name": "Ada"}"#.utf8)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try JSONParser<Profile>(decoder: decoder).parse(data: body) == Profile(userId: 7, displayName: "Ada"))

        let error = try #require(throws: ParsingError.self) {
            try JSONParser<Profile>().parse(data: body)
        }
        #expect(error.reason == .keyNotFound("userId"))
    }

    @Test("keeps integer-valued dictionary keys by name in the coding path")
    func integerKeysInPath() throws {
        let error = try #require(throws: ParsingError.self) {
            try JSONParser<[Int: [Int]]>().parse(data: Data(#"{"5": [1, "x"]}"#.utf8))
        }
        #expect(error.reason == .typeMismatch(expected: "Int"))
        #expect(error.codingPath == ["5", "Index 1"])
    }

    @Test("keeps the first 128 bytes of a long body, and only those")
    func bodyPrefix() throws {
        let padding = String(repeating: "x", count: 300)
        let body = Data(#"{"id": "not a number", "name": "\#(padding)"}"#.utf8)
        let error = try #require(throws: ParsingError.self) {
            try JSONParser<Item>().parse(data: body)
        }
        #expect(error.bodyPrefix.count == 128)
        #expect(error.bodyPrefix == body.prefix(128))
        #expect(error.bodyLength == body.count)
    }

    @Test("keeps a short body whole as the prefix, with indices from zero")
    func shortBodyPrefix() throws {
        let whole = Data("padding{\"id\": true}".utf8)
        let body = whole.dropFirst(7)
        let error = try #require(throws: ParsingError.self) {
            try JSONParser<Item>().parse(data: body)
        }
        #expect(error.bodyPrefix == body)
        #expect(error.bodyPrefix.startIndex == 0)
        #expect(error.bodyLength == body.count)
    }

    @Test("lets errors other than DecodingError through unchanged")
    func foreignErrors() {
        #expect(throws: Rejected.self) {
            try JSONParser<Rejecting>().parse(data: Data("{}".utf8))
        }
    }

    @Test("never puts the body in the error's description")
    func descriptionHidesBody() throws {
        let secret = "sk_live_SUPERSECRET_4242"
        let body = Data(
            #"{"items": [{"id": 1, "name": "a"}, {"id": "\#(secret)", "name": "b"}], "owner": {"login": "x"}}"#.utf8)
        let error = try #require(throws: ParsingError.self) {
            try JSONParser<Catalog>().parse(data: body)
        }
        #expect(String(decoding: error.bodyPrefix, as: UTF8.self).contains(secret))
        for text in [error.description, "\(error)", String(reflecting: error), error.localizedDescription] {
            #expect(!text.contains(secret))
            #expect(!text.contains("SUPERSECRET"))
        }
        #expect(error.description.contains("JSONParser<Catalog>"))
        #expect(error.description.contains(#"["items", "Index 1", "id"]"#))
        #expect(error.description.contains("\(body.count) bytes"))
    }

    @Test("parsers made with init() share one decoder, which decodes on many threads at once")
    func defaultDecoderIsSharedSafely() async throws {
        let results = await withTaskGroup(of: Item?.self) { group in
            for id in 0..<200 {
                group.addTask {
                    try? JSONParser<Item>().parse(data: Data(#"{"id": \#(id), "name": "n\#(id)"}"#.utf8))
                }
            }
            var items: [Item] = []
            for await item in group {
                if let item { items.append(item) }
            }
            return items
        }
        #expect(results.count == 200)
        #expect(Set(results.map(\.id)) == Set(0..<200))
        #expect(results.allSatisfy { $0.name == "n\($0.id)" })
    }
}
