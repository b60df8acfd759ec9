import APIKit
import Foundation
import Testing

@Suite("NestingEncoding: objects in query strings and form bodies")
struct NestingEncodingTests {
    struct Filter: Encodable, Sendable {
        struct Range: Encodable, Sendable {
            var from = 1
            var to = 9
        }

        var status = "open"
        var range = Range()
        var tags = ["a", "b"]
        var owner: String? = nil
    }

    struct Search: RequestConfiguration, Sendable {
        @Query("filter") var filter = Filter()
    }

    @Test("brackets is the default: members in declaration order, any depth; nil members skipped")
    func brackets() throws {
        #expect(
            try urlRequest(Search()).percentEncodedQuery
                == "filter%5Bstatus%5D=open&filter%5Brange%5D%5Bfrom%5D=1&filter%5Brange%5D%5Bto%5D=9"
                + "&filter%5Btags%5D=a&filter%5Btags%5D=b"
        )
    }

    @Test("dotted writes a.b; arrays inside follow the array strategy")
    func dotted() throws {
        #expect(
            try urlRequest(Search(), strategy: .init(arrays: .indexed, nesting: .dotted)).percentEncodedQuery
                == "filter.status=open&filter.range.from=1&filter.range.to=9&filter.tags%5B0%5D=a&filter.tags%5B1%5D=b"
        )
    }

    struct Dictionaries: RequestConfiguration, Sendable {
        @Query("map") var map = ["zeta": 1, "alpha": 2, "mid": 3, "Beta": 4]
        @Field("nested") var nested = ["b": ["y": true, "x": false], "a": ["k": true]]
    }

    @Test("dictionary members are sorted by key, so the request is the same every time")
    func dictionariesSorted() throws {
        for _ in 0..<5 {
            #expect(
                try urlRequest(Dictionaries(), method: .post).percentEncodedQuery
                    == "map%5BBeta%5D=4&map%5Balpha%5D=2&map%5Bmid%5D=3&map%5Bzeta%5D=1"
            )
            #expect(
                try urlRequest(Dictionaries(), method: .post).bodyText
                    == "nested%5Ba%5D%5Bk%5D=true&nested%5Bb%5D%5Bx%5D=false&nested%5Bb%5D%5By%5D=true"
            )
        }
    }

    @Test("form bodies nest the same way, with form encoding")
    func form() throws {
        struct Form: RequestConfiguration, Sendable {
            @Field("filter", strategy: .init(nesting: .dotted)) var filter = Filter(status: "in review")
        }
        #expect(
            try urlRequest(Form(), method: .post).bodyText
                == "filter.status=in+review&filter.range.from=1&filter.range.to=9&filter.tags=a&filter.tags=b"
        )
    }

    struct ExplicitNil: Encodable, Sendable {
        var a: Int? = nil
        var b = 1
        enum CodingKeys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(a, forKey: .a)  // encodeNil for nil
            try container.encode(b, forKey: .b)
        }
    }

    @Test("a member encoded as nil follows the nil strategy")
    func explicitNilMember() throws {
        struct Config: RequestConfiguration, Sendable {
            @Query("o") var omitted = ExplicitNil()
            @Query("e", strategy: .init(nils: .empty)) var empty = ExplicitNil()
            @Query("n", strategy: .init(nils: .null)) var null = ExplicitNil()
        }
        #expect(
            try urlRequest(Config()).percentEncodedQuery
                == "o%5Bb%5D=1&e%5Ba%5D=&e%5Bb%5D=1&n%5Ba%5D=null&n%5Bb%5D=1"
        )
    }

    @Test("an object inside a bracketed list is a build error naming the nested key")
    func objectInBracketedList() throws {
        struct Config: RequestConfiguration, Sendable {
            @Query("q", strategy: .init(arrays: .brackets, nesting: .dotted)) var filter = Wrapper()
        }
        struct Wrapper: Encodable, Sendable {
            var items = [Filter.Range()]
        }
        let error = try #require(buildError(Config()))
        guard case .unsupportedValue("filter", "q", .elementNotExpressible("q.items[0]", "object", .brackets)) = error
        else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    @Test("an empty object or a type that writes nothing sends nothing")
    func emptyObject() throws {
        struct Nothing: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {}
        }
        struct Config: RequestConfiguration, Sendable {
            @Query("a") var a = Nothing()
            @Query("b") var b = [String: Int]()
            @Query("c") var c = 1
        }
        #expect(try urlRequest(Config()).percentEncodedQuery == "c=1")
    }
}
