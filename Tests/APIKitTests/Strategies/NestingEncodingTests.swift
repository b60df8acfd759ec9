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

    /// Writes through every container a type's own `encode(to:)` may ask for: explicit nils,
    /// nested containers, and super encoders (keyed `super`, as `JSONEncoder` names them).
    struct HandWritten: Encodable, Sendable {
        enum Keys: String, CodingKey { case gone, list, object, member, parent }
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Keys.self)
            try keyed.encodeNil(forKey: .gone)
            var list = keyed.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            try list.encodeNil()
            var object = keyed.nestedContainer(keyedBy: Keys.self, forKey: .object)
            try object.encode("x", forKey: .member)
            var superValue = keyed.superEncoder().singleValueContainer()
            try superValue.encode(5)
            var parent = keyed.superEncoder(forKey: .parent).singleValueContainer()
            try parent.encodeNil()
        }
    }

    /// A list written by hand: an object, a list and a super encoder as its elements.
    struct HandWrittenList: Encodable, Sendable {
        enum Keys: String, CodingKey { case member }
        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            var object = list.nestedContainer(keyedBy: Keys.self)
            try object.encode(1, forKey: .member)
            var inner = list.nestedUnkeyedContainer()
            try inner.encode(2)
            var element = list.superEncoder().singleValueContainer()
            try element.encode(3)
        }
    }

    /// A value that encodes itself as one nil.
    struct NilValue: Encodable, Sendable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }

    @Test("a type's own encode(to:): explicit nils follow the nil strategy, nested and super containers nest")
    func handWrittenEncoders() throws {
        struct Queries: RequestConfiguration, Sendable {
            @Query("c", strategy: .init(nesting: .dotted, nils: .null)) var c = HandWritten()
            @Query("l", strategy: .init(arrays: .indexed, nesting: .dotted)) var l = HandWrittenList()
            @Query("n", strategy: .init(nils: .null)) var null = NilValue()
            @Query("o") var omitted = NilValue()
        }
        #expect(
            try urlRequest(Queries()).percentEncodedQuery
                == "c.gone=null&c.list=1&c.list=null&c.object.member=x&c.super=5&c.parent=null"
                + "&l%5B0%5D.member=1&l%5B1%5D%5B0%5D=2&l%5B2%5D=3&n=null"
        )
        struct Form: RequestConfiguration, Sendable {
            @Field("c", strategy: .init(nils: .empty)) var c = HandWritten()
        }
        #expect(
            try urlRequest(Form(), method: .post).bodyText
                == "c%5Bgone%5D=&c%5Blist%5D=1&c%5Blist%5D=&c%5Bobject%5D%5Bmember%5D=x&c%5Bsuper%5D=5&c%5Bparent%5D="
        )
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
