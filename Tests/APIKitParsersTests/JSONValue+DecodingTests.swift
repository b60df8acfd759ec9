import APIKitParsers
import Foundation
import Testing

@Suite("JSONValue.decode")
struct JSONValueDecodingTests {
    struct User: Decodable, Equatable {
        let id: Int
        let name: String
        let tags: [String]
    }

    struct Profile: Decodable, Equatable {
        let userId: Int
        let signedUpAt: Date
    }

    @Test("converts a value into a Decodable type")
    func decodesType() throws {
        let value: JSONValue = ["payload": ["id": 7, "name": "Ada", "tags": ["a"]]]
        let user = try #require(value["payload"]).decode(User.self)
        #expect(user == User(id: 7, name: "Ada", tags: ["a"]))
        let inferred: [String] = try #require(value["payload"]?["tags"]).decode()
        #expect(inferred == ["a"])
    }

    @Test("converts numbers across the two cases when the value fits")
    func numbers() throws {
        #expect(try JSONValue.integer(3).decode(Double.self) == 3.0)
        #expect(try JSONValue.double(3.0).decode(Int.self) == 3)
        #expect(try JSONValue.integer(.max).decode(Int64.self) == .max)
        #expect(try JSONValue.bool(true).decode(Bool.self))
        #expect(try JSONValue.null.decode(Int?.self) == nil)
    }

    @Test("uses the given decoder's strategies")
    func customDecoder() throws {
        let value: JSONValue = ["user_id": 1, "signed_up_at": "2024-01-02T03:04:05Z"]
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        #expect(
            try value.decode(Profile.self, decoder: decoder)
                == Profile(userId: 1, signedUpAt: Date(timeIntervalSince1970: 1_704_164_645)))
        let error = try #require(throws: ParsingError.self) { try value.decode(Profile.self) }
        #expect(error.reason == .keyNotFound("userId"))
    }

    @Test("reports a mismatch as JSONParser does, with reason, coding path and parser name")
    func mismatch() throws {
        let value: JSONValue = ["id": 7, "name": "Ada", "tags": ["a", 2]]
        let error = try #require(throws: ParsingError.self) { try value.decode(User.self) }
        #expect(error.reason == .typeMismatch(expected: "String"))
        #expect(error.codingPath == ["tags", "Index 1"])
        #expect(error.parser == "JSONParser<User>")
        #expect(error.underlyingError is DecodingError)
        #expect(error.bodyPrefix == error.bodyPrefix.prefix(128))
        #expect(error.bodyLength > 0)

        let missing = try #require(throws: ParsingError.self) { try JSONValue.object(["id": 7]).decode(User.self) }
        #expect(missing.reason == .keyNotFound("name"))
        let null = try #require(throws: ParsingError.self) { try JSONValue.null.decode(Int.self) }
        #expect(null.reason == .valueNotFound(expected: "Int"))
        #expect(throws: ParsingError.self) { try JSONValue.bool(true).decode(Int.self) }
        #expect(throws: ParsingError.self) { try JSONValue.integer(1).decode(Bool.self) }
    }

    @Test("a fraction into an Int fails as JSONParser<Int> fails on 1.5")
    func fractionIntoInt() throws {
        let fromValue = try #require(throws: ParsingError.self) { try JSONValue.double(1.5).decode(Int.self) }
        let fromParser = try #require(throws: ParsingError.self) { try JSONParser<Int>().parse(data: Data("1.5".utf8)) }
        #expect(fromValue.reason == fromParser.reason)
        #expect(fromValue.parser == fromParser.parser)
    }

    @Test("a non-finite double is dataCorrupted at its path, with an empty body")
    func nonFinite() throws {
        let value: JSONValue = ["x": [.double(.nan)]]
        let error = try #require(throws: ParsingError.self) { try value.decode([String: [Double]].self) }
        #expect(error.reason == .dataCorrupted)
        #expect(error.codingPath == ["x", "Index 0"])
        #expect(error.bodyLength == 0)
        #expect(error.underlyingError is EncodingError)
    }
}
