import APIKit
import Foundation
import Testing

@Suite("ArrayEncoding: repeatKey, brackets, indexed, commaSeparated")
struct ArrayEncodingTests {
    struct Lists: RequestConfiguration, Sendable {
        var strategy: EncodingStrategy
        @Query("ids") var ids = [1, 2]
        @Query("names") var names = ["a b", "c,d"]
        @Query("holes") var holes: [Int?] = [1, nil, 3]
        @Query("none") var none: [String] = []
        @Query("word") var word = "x,y"

        init(_ arrays: ArrayEncoding) {
            strategy = .init(arrays: arrays)
            _ids = Query(wrappedValue: [1, 2], "ids", strategy: strategy)
            _names = Query(wrappedValue: ["a b", "c,d"], "names", strategy: strategy)
            _holes = Query(wrappedValue: [1, nil, 3], "holes", strategy: strategy)
            _none = Query(wrappedValue: [], "none", strategy: strategy)
            _word = Query(wrappedValue: "x,y", "word", strategy: strategy)
        }
    }

    @Test("repeatKey, the default, repeats the key; nil elements and empty arrays send nothing")
    func repeatKey() throws {
        let expected = "ids=1&ids=2&names=a%20b&names=c%2Cd&holes=1&holes=3&word=x%2Cy"
        #expect(try urlRequest(Lists(.repeatKey)).percentEncodedQuery == expected)
        #expect(try urlRequest(Lists(.repeatKey), strategy: .inherit).percentEncodedQuery == expected)
    }

    @Test("brackets writes key[] (percent-encoded) for each element")
    func brackets() throws {
        #expect(
            try urlRequest(Lists(.brackets)).percentEncodedQuery
                == "ids%5B%5D=1&ids%5B%5D=2&names%5B%5D=a%20b&names%5B%5D=c%2Cd&holes%5B%5D=1&holes%5B%5D=3&word=x%2Cy"
        )
    }

    @Test("indexed writes key[i]; an omitted nil element keeps its position")
    func indexed() throws {
        #expect(
            try urlRequest(Lists(.indexed)).percentEncodedQuery
                == "ids%5B0%5D=1&ids%5B1%5D=2&names%5B0%5D=a%20b&names%5B1%5D=c%2Cd&holes%5B0%5D=1&holes%5B2%5D=3&word=x%2Cy"
        )
    }

    @Test("commaSeparated joins with a literal comma; commas inside elements are %2C; a String is not split")
    func commaSeparated() throws {
        let request = try urlRequest(Lists(.commaSeparated))
        #expect(request.percentEncodedQuery == "ids=1,2&names=a%20b,c%2Cd&holes=1,3&word=x%2Cy")
        let items = try #require(
            request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems })
        #expect(items.first { $0.name == "names" }?.value == "a b,c,d")
    }

    @Test("form bodies use the same array rules, with form encoding")
    func formBody() throws {
        struct Form: RequestConfiguration, Sendable {
            @Field("tags", strategy: .init(arrays: .brackets)) var tags = ["x y", "z"]
            @Field("ids", strategy: .init(arrays: .commaSeparated)) var ids = [3, 4]
            @Field("at", strategy: .init(arrays: .indexed)) var at = ["p"]
        }
        #expect(
            try urlRequest(Form(), method: .post).bodyText
                == "tags%5B%5D=x+y&tags%5B%5D=z&ids=3,4&at%5B0%5D=p"
        )
    }

    enum Color: String, Encodable, Sendable { case red, blue }

    @Test("arrays of any Encodable element go through the same rules")
    func generalElements() throws {
        struct Config: RequestConfiguration, Sendable {
            @Query("c", strategy: .init(arrays: .commaSeparated)) var colors: [Color]? = [.red, .blue]
            @Query("f", strategy: .init(arrays: .brackets)) var flags: Set<Bool> = [true]
            @Query("d", strategy: .init(arrays: .indexed)) var doubles = [0.5, 2]
        }
        #expect(try urlRequest(Config()).percentEncodedQuery == "c=red,blue&f%5B%5D=true&d%5B0%5D=0.5&d%5B1%5D=2.0")
    }

    struct Grid: RequestConfiguration, Sendable {
        @Query("m") var matrix: [[Int]] = []
        init(_ arrays: ArrayEncoding) {
            _matrix = Query(wrappedValue: [[1, 2], [3]], "m", strategy: .init(arrays: arrays))
        }
    }

    struct Point: Encodable, Sendable {
        var x = 1
        var y = 2
    }

    struct Points: RequestConfiguration, Sendable {
        @Query("p") var points: [Point] = []
        init(_ arrays: ArrayEncoding) {
            _points = Query(wrappedValue: [Point(), Point(x: 3, y: 4)], "p", strategy: .init(arrays: arrays))
        }
    }

    @Test("only indexed can write lists of lists and lists of objects")
    func indexedNesting() throws {
        #expect(
            try urlRequest(Grid(.indexed)).percentEncodedQuery
                == "m%5B0%5D%5B0%5D=1&m%5B0%5D%5B1%5D=2&m%5B1%5D%5B0%5D=3"
        )
        #expect(
            try urlRequest(Points(.indexed)).percentEncodedQuery
                == "p%5B0%5D%5Bx%5D=1&p%5B0%5D%5By%5D=2&p%5B1%5D%5Bx%5D=3&p%5B1%5D%5By%5D=4"
        )
    }

    @Test(
        "a list or an object inside a list is a build error with the other strategies",
        arguments: [ArrayEncoding.repeatKey, .brackets, .commaSeparated]
    )
    func inexpressible(arrays: ArrayEncoding) throws {
        let grid = try #require(buildError(Grid(arrays)))
        guard case .unsupportedValue("matrix", "m", .elementNotExpressible("m[0]", "list", arrays)) = grid else {
            Issue.record("unexpected \(grid)")
            return
        }
        #expect(String(describing: grid).contains("`matrix`"))
        #expect(String(describing: grid).contains("ArrayEncoding.\(arrays)"))

        let points = try #require(buildError(Points(arrays)))
        guard case .unsupportedValue("points", "p", .elementNotExpressible("p[0]", "object", arrays)) = points else {
            Issue.record("unexpected \(points)")
            return
        }
    }

    @Test("a bad declaration sends nothing: perform fails with buildFailed before any traffic")
    func nothingSent() throws {
        let request = TestRequest(configuration: Grid(.commaSeparated))
        #expect {
            _ = try request.makeURLRequest()
        } throws: { error in
            guard let error = error as? RequestError, case .buildFailed(let build, _) = error else { return false }
            return build.fields == ["matrix"]
        }
    }
}
