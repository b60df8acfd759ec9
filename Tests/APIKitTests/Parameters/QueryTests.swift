import APIKit
import Foundation
import Testing

@Suite("@Query, @QueryDict and @KeyQuery")
struct QueryTests {
    struct Tricky: RequestConfiguration, Sendable {
        @Query("q") var q = "a+b c&d=e#f%g/h?i"
        @Query("emoji") var emoji = "👍🏽"
        @Query("cjk") var cjk = "東京"
        @Query("empty") var empty = ""
        @Query("k y") var spacedKey = "v"
    }

    @Test("keys and values are percent-encoded per RFC 3986, + as %2B and space as %20")
    func trickyValues() throws {
        #expect(
            try urlRequest(Tricky()).percentEncodedQuery
                == "q=a%2Bb%20c%26d%3De%23f%25g%2Fh%3Fi&emoji=%F0%9F%91%8D%F0%9F%8F%BD&cjk=%E6%9D%B1%E4%BA%AC&empty=&k%20y=v"
        )
    }

    @Test("the encoded query decodes back to the original values")
    func roundTrip() throws {
        let url = try #require(try urlRequest(Tricky()).url)
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.map(\.name) == ["q", "emoji", "cjk", "empty", "k y"])
        #expect(items.map(\.value) == ["a+b c&d=e#f%g/h?i", "👍🏽", "東京", "", "v"])
    }

    enum Sort: String, Encodable, Sendable {
        case newest = "new-est"
    }

    enum Level: Int, Encodable, Sendable {
        case high = 3
    }

    struct Scalars: RequestConfiguration, Sendable {
        @Query("t") var yes = true
        @Query("f") var no = false
        @Query("d") var double = 0.1
        @Query("big") var big = Int64.max
        @Query("ubig") var ubig = UInt64.max
        @Query("neg") var negative = -42
        @Query("float") var float: Float = 1.5
        @Query("dec") var decimal = Decimal(string: "12345678901234567890.123")!
        @Query("sort") var sort = Sort.newest
        @Query("level") var level = Level.high
        @Query("date") var date = Date(timeIntervalSince1970: 1_700_000_000)
        @Query("uuid") var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        @Query("url") var url = URL(string: "https://x.org/a?b=c")!
    }

    @Test("scalars: Bool, exact numbers, raw values, ISO 8601 UTC dates, UUID, URL")
    func scalars() throws {
        #expect(
            try urlRequest(Scalars()).percentEncodedQuery
                == "t=true&f=false&d=0.1&big=9223372036854775807&ubig=18446744073709551615&neg=-42&float=1.5"
                + "&dec=12345678901234567890.123&sort=new-est&level=3&date=2023-11-14T22%3A13%3A20Z"
                + "&uuid=E621E1F8-C36C-495A-93FC-0C247A3E6E5F&url=https%3A%2F%2Fx.org%2Fa%3Fb%3Dc"
        )
    }

    struct Optionals: RequestConfiguration, Sendable {
        @Query("a") var a: Int? = nil
        @Query("b") var b: Int? = 1
        @Query("c") var c: String?? = .some(nil)
        @Query("d") var d: String? = ""
    }

    @Test("nil omits the key, \"\" sends key=")
    func optionals() throws {
        #expect(try urlRequest(Optionals()).percentEncodedQuery == "b=1&d=")
    }

    struct Arrays: RequestConfiguration, Sendable {
        @Query("ids") var ids = [1, 2, 3]
        @Query("none") var none: [Int] = []
        @Query("holes") var holes: [Int?] = [1, nil, 2]
        @Query("sorts") var sorts = [Sort.newest, Sort.newest]
        @Query("maybe") var maybe: [String]? = ["a", "b"]
        @Query("never") var never: [String]? = nil
        @Query("levels") var levels: [Level]?? = .some([.high])
    }

    @Test("arrays, optional ones too, repeat the key; an empty array and nil elements send nothing")
    func arrays() throws {
        #expect(
            try urlRequest(Arrays()).percentEncodedQuery
                == "ids=1&ids=2&ids=3&holes=1&holes=2&sorts=new-est&sorts=new-est&maybe=a&maybe=b&levels=3"
        )
    }

    struct Dict: RequestConfiguration, Sendable {
        @QueryDict var constants = ["z": "last", "a": "first b", "m": "&"]
        @QueryDict var absent: [String: String]? = nil
    }

    @Test("@QueryDict items are sorted by key and encoded like @Query; nil sends none")
    func queryDict() throws {
        #expect(try urlRequest(Dict()).percentEncodedQuery == "a=first%20b&m=%26&z=last")
    }

    struct Keys: RequestConfiguration, Sendable {
        @KeyQuery("pretty") var pretty = true
        @KeyQuery("debug") var debug = false
        @Query("x") var x = 1
        @KeyQuery("a b") var spaced = true
    }

    @Test("@KeyQuery true sends the bare key, false sends nothing")
    func keyQuery() throws {
        let request = try urlRequest(Keys())
        #expect(request.percentEncodedQuery == "pretty&x=1&a%20b")
        #expect(request.url?.absoluteString == "https://api.example.com/items?pretty&x=1&a%20b")
    }

    struct Point: Encodable, Sendable {
        var x = 1
    }

    struct Nested: RequestConfiguration, Sendable {
        @Query("point") var point = Point()
    }

    struct NestedList: RequestConfiguration, Sendable {
        @Query("grid") var grid = [[1, 2], [3]]
    }

    struct Dictionary: RequestConfiguration, Sendable {
        @Query("map") var map = ["a": 1]
    }

    @Test(
        "objects nest with brackets by default; a list inside a repeated-key list is a build error naming field and key"
    )
    func nestingByDefault() throws {
        #expect(try urlRequest(Nested()).percentEncodedQuery == "point%5Bx%5D=1")
        #expect(try urlRequest(Dictionary()).percentEncodedQuery == "map%5Ba%5D=1")

        let grid = try #require(buildError(NestedList()))
        guard case .unsupportedValue("grid", "grid", .elementNotExpressible("grid[0]", "list", .repeatKey)) = grid
        else {
            Issue.record("unexpected \(grid)")
            return
        }
        #expect(String(describing: grid).contains("`grid`"))
        #expect(String(describing: grid).contains("grid[0]"))
    }

    struct NotFinite: RequestConfiguration, Sendable {
        @Query("x") var x = Double.nan
    }

    @Test("NaN and infinity are build errors")
    func nonFinite() throws {
        let error = try #require(buildError(NotFinite()))
        guard case .unsupportedValue("x", "x", .nonFiniteNumber) = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    struct Failing: Encodable, Sendable {
        struct Boom: Error {}
        func encode(to encoder: any Encoder) throws { throw Boom() }
    }

    struct Throws: RequestConfiguration, Sendable {
        @Query("bad") var bad = Failing()
    }

    @Test("a value whose encode(to:) throws is a build error carrying that error")
    func encodingThrows() throws {
        let error = try #require(buildError(Throws()))
        guard case .valueEncodingFailed("bad", "bad", let underlying) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(underlying is Failing.Boom)
    }

    @propertyWrapper
    struct CommaSeparated: QueryProtocol {
        let key: String
        var wrappedValue: [String]
        init(wrappedValue: [String], _ key: String) {
            self.key = key
            self.wrappedValue = wrappedValue
        }
        var queryParameters: [QueryParameter] {
            [QueryParameter(key: key, value: wrappedValue.joined(separator: ","))]
        }
    }

    struct Custom: RequestConfiguration, Sendable {
        @CommaSeparated("fields") var fields = ["id", "name"]
    }

    @Test("a user's own QueryProtocol wrapper gets the same encoding")
    func customWrapper() throws {
        #expect(try urlRequest(Custom()).percentEncodedQuery == "fields=id%2Cname")
    }
}

@Suite("Query numbers")
struct QueryNumberTextTests {
    struct Numbers: RequestConfiguration, Sendable {
        @Query("small") var small = 1e-7
        @Query("large") var large = 1e21
        @Query("plain") var plain = 0.1
        @Query("big") var big = UInt64.max
    }

    @Test("doubles are written as Swift prints them: shortest round-trip text, exponents as 1e-07 and 1e+21")
    func exponents() throws {
        #expect(
            try urlRequest(Numbers()).percentEncodedQuery
                == "small=1e-07&large=1e%2B21&plain=0.1&big=18446744073709551615")
    }

    struct Boundaries: RequestConfiguration, Sendable {
        @Query("a") var smallestPlain = 0.0001
        @Query("b") var below = 0.00009
        @Query("c") var largestPlain = 9_007_199_254_740_992.0  // 2^53
        @Query("d") var above = 9_007_199_254_740_994.0
        @Query("e") var whole = 3.0
        @Query("f") var negativeZero = -0.0
        @Query("g") var floatPlain: Float = 16_777_216  // 2^24
        @Query("h") var floatAbove: Float = 16_777_218
        @Query("i") var floatSmall: Float = 0.00009
    }

    @Test("exponent form exactly below 0.0001 and above 2^53 (2^24 for Float); whole numbers keep .0")
    func exponentBoundaries() throws {
        #expect(
            try urlRequest(Boundaries()).percentEncodedQuery
                == "a=0.0001&b=9e-05&c=9007199254740992.0&d=9.007199254740994e%2B15&e=3.0&f=-0.0"
                + "&g=16777216.0&h=1.6777218e%2B07&i=9e-05")
    }

    struct Decimals: RequestConfiguration, Sendable {
        @Query("small") var small = Decimal(string: "1e-7")!
        @Query("large") var large = Decimal(string: "1e21")!
    }

    @Test("a Decimal is written as plain decimal text, never with an exponent")
    func decimalsArePlain() throws {
        #expect(try urlRequest(Decimals()).percentEncodedQuery == "small=0.0000001&large=1000000000000000000000")
    }

    struct FormNumbers: RequestConfiguration, Sendable {
        @Field("small") var small = 1e-7
        @Field("large") var large = 1e21
    }

    @Test("form fields write numbers like query items")
    func formNumbers() throws {
        #expect(try urlRequest(FormNumbers(), method: .post).bodyText == "small=1e-07&large=1e%2B21")
    }
}
