import APIKit
import Foundation
import Testing

@Suite("@PathSegment")
struct PathTests {
    struct UserPosts: RequestConfiguration, Sendable {
        @PathSegment("user") var user = "me"
        @PathSegment("page") var page = 2
    }

    @Test("placeholders are filled in place, in any order, with the query rules for values")
    func fills() throws {
        let request = try urlRequest(UserPosts(), path: "users/{user}/posts/{page}")
        #expect(request.url?.absoluteString == "https://api.example.com/users/me/posts/2")
        let reversed = try urlRequest(UserPosts(), path: "p{page}/{user}.json")
        #expect(reversed.url?.absoluteString == "https://api.example.com/p2/me.json")
    }

    struct Tricky: RequestConfiguration, Sendable {
        @PathSegment("v") var value = "a/b?c#d e+f%g東"
    }

    @Test("a value stays one segment: / ? # space + % and non-ASCII are escaped")
    func singleSegment() throws {
        let request = try urlRequest(Tricky(), path: "files/{v}/raw")
        #expect(request.url?.absoluteString == "https://api.example.com/files/a%2Fb%3Fc%23d%20e%2Bf%25g%E6%9D%B1/raw")
        #expect(request.url?.query == nil)
        #expect(request.url?.fragment == nil)
    }

    enum Kind: String, Encodable, Sendable { case draft }

    struct Scalars: RequestConfiguration, Sendable {
        @PathSegment("kind") var kind = Kind.draft
        @PathSegment("flag") var flag = true
        @PathSegment("when") var when = Date(timeIntervalSince1970: 0)
    }

    @Test("raw values, booleans and dates follow the query rules")
    func scalars() throws {
        let request = try urlRequest(Scalars(), path: "{kind}/{flag}/{when}")
        #expect(request.url?.absoluteString == "https://api.example.com/draft/true/1970-01-01T00%3A00%3A00Z")
    }

    struct Single: RequestConfiguration, Sendable {
        @PathSegment("id") var id: String? = "x"
    }

    @Test("a placeholder without a value, or with nil, names the placeholder and the path")
    func missingValue() throws {
        let error = try #require(buildError(Single(), path: "items/{id}/{other}"))
        guard case .missingPathValue("other", path: "items/{id}/{other}") = error else {
            Issue.record("unexpected \(error)")
            return
        }
        let nilValue = try #require(buildError(Single(id: nil), path: "items/{id}"))
        guard case .missingPathValue("id", _) = nilValue else {
            Issue.record("unexpected \(nilValue)")
            return
        }
    }

    @Test("a value without a placeholder names the property and the path")
    func unusedValue() throws {
        let error = try #require(buildError(Single(), path: "items"))
        guard case .unusedPathValue("id", field: "id", path: "items") = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    struct Twice: RequestConfiguration, Sendable {
        @PathSegment("id") var first = 1
        @PathSegment("id") var second = 2
    }

    /// A user's wrapper with many path values, `p0`, `p1`, …: more than fit in one word of bits.
    @propertyWrapper
    struct ManyValues: PathProtocol {
        var wrappedValue: Int
        var pathParameters: [PathParameter] { (0..<wrappedValue).map { PathParameter(name: "p\($0)", value: $0) } }
    }

    struct Many: RequestConfiguration, Sendable {
        @ManyValues var values: Int
    }

    @Test("every value is checked for a placeholder, below and beyond 64 values")
    func manyValues() throws {
        for count in [1, 63, 64, 65, 130] {
            let all = (0..<count).map { "{p\($0)}" }.joined(separator: "/")
            let request = try urlRequest(Many(values: count), path: all)
            #expect(request.url?.path == "/" + (0..<count).map(String.init).joined(separator: "/"), "\(count) values")
            for unused in Set([0, count / 2, count - 1]) {
                let path = (0..<count).filter { $0 != unused }.map { "{p\($0)}" }.joined(separator: "/")
                let error = try #require(buildError(Many(values: count), path: path))
                guard case .unusedPathValue(let name, field: "values", path: _) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(name == "p\(unused)", "\(count) values, p\(unused) unused")
            }
        }
    }

    @Test("one placeholder filled twice names both properties")
    func duplicate() throws {
        let error = try #require(buildError(Twice(), path: "items/{id}"))
        guard case .duplicatePathValue("id", fields: ["first", "second"]) = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    struct Value: RequestConfiguration, Sendable {
        var v: PathSegment<String>
        init(_ value: String) { v = PathSegment(wrappedValue: value, "v") }
    }

    struct List: RequestConfiguration, Sendable {
        @PathSegment("v") var v = ["a", "b"]
    }

    @Test(
        "empty, dot segments and control characters are rejected",
        arguments: [
            ("", BuildError.InvalidPathValueReason.empty), (".", .dotSegment), ("..", .dotSegment),
            ("a\r\nb", .controlCharacter), ("a\u{0}", .controlCharacter),
        ]
    )
    func invalidValues(value: String, reason: BuildError.InvalidPathValueReason) throws {
        let error = try #require(buildError(Value(value), path: "x/{v}"))
        guard case .invalidPathValue("v", field: "v", let actual) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(actual == reason)
        #expect(!String(describing: error).contains("\r"))
    }

    @Test("dots inside a value are fine; a list is rejected")
    func dotsAndLists() throws {
        #expect(try urlRequest(Value("..."), path: "x/{v}").url?.path == "/x/...")
        #expect(try urlRequest(Value("a.b"), path: "x/{v}").url?.path == "/x/a.b")
        let list = try #require(buildError(List(), path: "x/{v}"))
        guard case .invalidPathValue("v", field: "v", reason: .multipleValues) = list else {
            Issue.record("unexpected \(list)")
            return
        }
    }

    struct Point: Encodable, Sendable {
        var x = 1
        var y = 2
    }

    struct Structured: RequestConfiguration, Sendable {
        @PathSegment("v") var v = Point()
        @PathSegment("w") var w: [Double] = [1.5]

        struct One: RequestConfiguration, Sendable {
            @PathSegment("w") var w: [Double] = [1.5]
        }
    }

    struct NotFinite: RequestConfiguration, Sendable {
        @PathSegment("v") var v = Double.nan
    }

    @Test("values go through the query's value encoder: structure is rejected, a list of one is its element")
    func valueEncoder() throws {
        let error = try #require(buildError(Structured(), path: "{v}/{w}"))
        guard case .unsupportedValue(field: "v", key: "v", reason: .nestedValue("Point")) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(try urlRequest(Structured.One(), path: "x/{w}").url?.path == "/x/1.5")
        let nan = try #require(buildError(NotFinite(), path: "{v}"))
        guard case .unsupportedValue(field: "v", key: "v", reason: .nonFiniteNumber) = nan else {
            Issue.record("unexpected \(nan)")
            return
        }
    }

    struct None: RequestConfiguration, Sendable {}

    @Test("braces that are not placeholders are escaped with the path; {name} needs a value")
    func literalBraces() throws {
        #expect(
            try urlRequest(None(), path: "a{/b}{}").url?.absoluteString == "https://api.example.com/a%7B/b%7D%7B%7D")
        let error = try #require(buildError(None(), path: "a/{id}"))
        guard case .missingPathValue("id", _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    struct HexValue: RequestConfiguration, Sendable {
        @PathSegment("v") var value = "41"
    }

    @Test("a % of the path just before a placeholder is escaped: the value cannot complete it to an escape")
    func percentBeforePlaceholder() throws {
        // Were the path's `%` kept, `p%` and `41` would read as `p%41`, which is `pA`.
        let request = try urlRequest(HexValue(), path: "p%{v}/%2F")
        #expect(request.url?.absoluteString == "https://api.example.com/p%2541/%2F")
    }

    struct NonASCII: RequestConfiguration, Sendable {
        @PathSegment("ユーザー") var user = "Zoë"
        @PathSegment("n") var number = 3
    }

    @Test("placeholders are found among non-ASCII text, and non-ASCII names and values are filled")
    func nonASCII() throws {
        let request = try urlRequest(NonASCII(), path: "é/{ユーザー}/ß{n}ü/{é")
        #expect(
            request.url?.absoluteString
                == "https://api.example.com/%C3%A9/Zo%C3%AB/%C3%9F3%C3%BC/%7B%C3%A9")
    }

    @propertyWrapper
    struct UserID: PathProtocol {
        var wrappedValue: Int
        var pathParameters: [PathParameter] { [PathParameter(name: "user", value: wrappedValue)] }
    }

    struct Custom: RequestConfiguration, Sendable {
        @UserID var user = 7
    }

    @Test("a user's own PathProtocol wrapper fills its placeholder")
    func customWrapper() throws {
        #expect(try urlRequest(Custom(), path: "users/{user}").url?.path == "/users/7")
    }
}

/// A configuration's `@PathSegment`s of a `String` or an `Int` are read in place unless a path
/// value comes from another wrapper; then they declare theirs with it. Both fill the path the
/// way Mirror's reading does (`urlRequest` and `buildError` compare the two).
@Suite("@PathSegment read in place or declared")
struct PathSegmentReadingTests {
    struct InPlace: RequestConfiguration, Sendable {
        @PathSegment("id") var id = 5
        @PathSegment("name") var name = "a b/c"
    }

    struct BesideAUsersWrapper: RequestConfiguration, Sendable {
        @PathSegment("id") var id = 5
        @PathTests.UserID var user = 7
        @PathSegment("name") var name = "a b/c"
    }

    @Test("both fill the placeholders in any order, each value one escaped segment")
    func fills() throws {
        #expect(
            try urlRequest(InPlace(), path: "{name}/i/{id}").url?.absoluteString
                == "https://api.example.com/a%20b%2Fc/i/5")
        #expect(
            try urlRequest(BesideAUsersWrapper(), path: "u/{user}/{name}/i/{id}").url?.absoluteString
                == "https://api.example.com/u/7/a%20b%2Fc/i/5")
    }

    @Test("both fail alike: an unused value, a missing one, a dot segment, a control character, a duplicate name")
    func failures() throws {
        for configuration in [InPlace(), InPlace(id: 5, name: ".."), InPlace(id: 5, name: "a\u{7}")] as [InPlace] {
            #expect(buildError(configuration, path: "{name}") != nil)
            #expect(buildError(configuration, path: "{name}/{id}/{other}") != nil)
        }
        guard case .unusedPathValue("id", field: "id", path: "x/{name}") = buildError(InPlace(), path: "x/{name}")
        else {
            Issue.record("expected the in-place id to be unused")
            return
        }
        guard
            case .invalidPathValue("name", field: "name", reason: .dotSegment) = buildError(
                BesideAUsersWrapper(name: ".."), path: "{user}/{name}/{id}")
        else {
            Issue.record("expected a dot segment from the declared reading")
            return
        }
        guard case .duplicatePathValue("id", fields: ["first", "second"]) = buildError(PathTests.Twice(), path: "{id}")
        else {
            Issue.record("expected two in-place values named id")
            return
        }
    }
}
