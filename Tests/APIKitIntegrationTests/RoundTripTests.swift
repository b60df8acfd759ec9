import APIKit
import APIKitTestSupport
import Testing

/// Values that break naive encoders: reserved characters, emoji with a modifier and a
/// flag (several scalars each), CJK, a combining mark that must not be normalized,
/// the empty string, and surrounding spaces.
enum Tricky {
    static let reserved = "a+b c&d=e#f%g/h?i"
    static let values: [String] = [
        reserved, "👍🏽", "🇯🇵", "東京", "e\u{301}", "", " spaced out ", "100%", "~-._*'()!$,;:@[]",
    ]
    static let everything = values.joined(separator: "|")
}

// MARK: - Requests

/// Every kind of query declaration at once.
struct QueryEchoRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>

    @Query("reserved") var reserved = Tricky.reserved
    @Query("skin") var skinTone = "👍🏽"
    @Query("flag") var flag = "🇯🇵"
    @Query("cjk") var cjk = "東京"
    @Query("combining") var combining = "e\u{301}"
    @Query("empty") var empty = ""
    @Query("ids") var ids = [1, 2]
    @Query("names") var names: [String?] = ["x y", nil, "東京"]
    @Query("yes") var yes = true
    @Query("no") var no = false
    @Query("tenth") var tenth = 0.1
    @Query("max") var max = Int64.max
    @Query("umax") var umax = UInt64.max
    @Query("when") var when = Date(timeIntervalSince1970: 1_714_564_800)
    @Query("uuid") var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
    @Query("missing") var missing: String? = nil
    @Query("東京 key&=+") var trickyKey = "v"
    @QueryDict var dict: [String: String]? = ["d1": Tricky.reserved, "d2": "👍🏽🇯🇵", "d 3&=": "東京"]
    @QueryDict var noDict: [String: String]? = nil
    @KeyQuery("verbose") var verbose = true
    @KeyQuery("quiet") var quiet = false

    var base = HTTPBin.baseURL
    var path = "anything/query"
    var method: HTTPMethod = .get
    var configuration: Self { self }
}

/// One `@Query` value and the same value in a `@QueryDict`, as value and inside a key.
struct SingleQueryRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>

    @Query("v") var value = ""
    @QueryDict var dict: [String: String]? = nil

    var base = HTTPBin.baseURL
    var path = "anything/single-query"
    var method: HTTPMethod = .get
    var configuration: Self { self }

    init(_ value: String) {
        self.value = value
        self.dict = ["d": value, "k" + value: "x"]
    }
}

/// One `@Field` value, as value and inside a key.
struct SingleFieldRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>

    @Field("v") var value = ""
    @Field("") var keyed = "x"

    var base = HTTPBin.baseURL
    var path = "anything/single-field"
    var method: HTTPMethod = .post
    var configuration: Self { self }

    init(_ value: String) {
        self.value = value
        self._keyed = Field(wrappedValue: "x", "k" + value)
    }
}

/// Headers from `@Header` and `@HeaderDict`.
struct HeaderEchoRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>

    @Header("X-Custom-Token") var token: String? = Tricky.reserved
    @Header("x-lower-case") var lowerCase: String? = "lower"
    @Header("X-Absent") var absent: String? = nil
    @Header("X-Quoted") var quoted: String? = #""q" ; a=b, c=<d> \ 'e' {f} [g]"#
    @HeaderDict var dict = [
        "X-Dict-One": "1",
        "X-Dict-Two": "two words",
        "X-Dict-Auth": "Bearer abc.DEF-123_~+/=",
    ]

    var base = HTTPBin.baseURL
    var path = "anything/headers"
    var method: HTTPMethod = .get
    var configuration: Self { self }
}

/// `Accept` declared by the request replaces the parser's.
struct AcceptOverrideRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>

    @Header("Accept") var accept: String? = "application/vnd.apikit+json"

    var base = HTTPBin.baseURL
    var path = "anything/accept"
    var method: HTTPMethod = .get
    var configuration: Self { self }
}

/// Edge cases of headers: an empty value, a tab inside a value, a declared Content-Type.
struct HeaderEdgeRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<JSONEchoBody.Small>

    @Header("X-Empty") var empty: String? = ""
    @Header("X-Tabbed") var tabbed: String? = "a\tb"
    @Header("content-type") var contentType: String? = "application/json; charset=utf-8"
    @JSON("name") var name = "東京"

    var base = HTTPBin.baseURL
    var path = "anything/header-edges"
    var method: HTTPMethod = .post
    var configuration: Self { self }
}

/// A base URL with a path prefix and a query of its own, and a path that needs escaping.
struct PrefixedRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>

    @Query("q") var query = "1"

    var base = HTTPBin.baseURL.appendingPathComponent("anything/prefix")
    var path = "/東京 x/y%2Fz"
    var method: HTTPMethod = .get
    var configuration: Self { self }
}

/// A large form body.
struct LargeFormRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>

    @Field("big") var big = String(repeating: "東京 a+b&", count: 40_000)

    var base = HTTPBin.baseURL
    var path = "anything/large"
    var method: HTTPMethod = .post
    var configuration: Self { self }
}

/// A form body with every kind of value.
struct FormEchoRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>

    @Field("reserved") var reserved = Tricky.reserved
    @Field("skin") var skinTone = "👍🏽"
    @Field("flag") var flag = "🇯🇵"
    @Field("cjk") var cjk = "東京"
    @Field("combining") var combining = "e\u{301}"
    @Field("empty") var empty = ""
    @Field("spaced") var spaced = " a  b "
    @Field("ids") var ids = [1, 2]
    @Field("yes") var yes = true
    @Field("tenth") var tenth = 0.1
    @Field("max") var max = Int64.max
    @Field("missing") var missing: String? = nil
    @Field("東京 key&=+") var trickyKey = "v"

    var base = HTTPBin.baseURL
    var path = "anything/form"
    var method: HTTPMethod = .post
    var configuration: Self { self }
}

/// A nested `Encodable` value for JSON bodies.
struct Profile: Codable, Sendable, Equatable {
    struct Address: Codable, Sendable, Equatable {
        var city: String
        var lines: [String]
    }

    var name: String
    var tags: [String]
    var address: Address
    var score: Double
    var big: Int64
    var active: Bool
    var nickname: String?
}

/// What the JSON body below decodes back to.
struct JSONEchoBody: Codable, Sendable, Equatable {
    var profile: Profile
    var matrix: [[Int]]
    var title: String
    var path: String
    var empty: String
    var people: [Profile.Address]
    var when: String
}

extension JSONEchoBody {
    /// A one-member JSON body.
    struct Small: Codable, Sendable, Equatable {
        var name: String
    }
}

/// A JSON body with nested structures, arrays and Unicode.
struct JSONEchoRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<JSONEchoBody>

    static let profile = Profile(
        name: "Zoë \"Z\" O'Neil\n\t\u{1}",
        tags: ["東京", "👍🏽", "🇯🇵", "e\u{301}"],
        address: .init(city: "東京", lines: ["1-2-3", "a/b\\c"]),
        score: 0.1,
        big: Int64.max,
        active: true,
        nickname: nil
    )

    @JSON("profile") var profile = JSONEchoRequest.profile
    @JSON("matrix") var matrix = [[1, 2], [], [3]]
    @JSON("title") var title = Tricky.everything
    @JSON("path") var jsonPath = "a/b/c"
    @JSON("empty") var empty = ""
    @JSON("people") var people = [Profile.Address(city: "Köln", lines: [])]
    @JSON("when") var when = Date(timeIntervalSince1970: 1_714_564_800)
    @JSON("omitted") var omitted: String? = nil

    var base = HTTPBin.baseURL
    var path = "anything/json"
    var method: HTTPMethod = .post
    var configuration: Self { self }
}

/// The spec's request, as in Examples/QuickStart/main.swift, pointed at the test server.
struct SetPushRequest: JSONDecodableRequest, RequestConfiguration {
    @Header("TOKEN") var accessToken = nil
    @Field("push_system_msg") var pushSystemMessage: Bool? = nil
    @Field("push_reply_me") var pushReplyMe: Bool? = nil
    @Field("push_favorited") var pushFavourite: Bool? = nil

    /// What httpbin's `/anything` echoes back.
    struct Response: Codable {
        var method: String
        var url: String
        var form: [String: String]
        var headers: [String: String]
    }

    let base: URL = HTTPBin.baseURL
    let path: String = "anything/v3/config/set_push"
    let method: HTTPMethod = .post

    var configuration: Self { return self }
}

extension SetPushRequest.Response: Sendable {}

// MARK: - Tests

@Suite("Round trips through httpbin /anything", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct RoundTripTests {
    static let bodyMethods: [HTTPMethod] = [.post, .put, .patch, .delete]

    @Test("@Query, @QueryDict and @KeyQuery arrive as declared")
    func queries() async throws {
        let echo = try await perform(QueryEchoRequest()).get()

        #expect(echo.method == "GET")
        #expect(echo.arg("reserved") == .one(Tricky.reserved))
        #expect(echo.arg("skin") == .one("👍🏽"))
        #expect(echo.arg("flag") == .one("🇯🇵"))
        #expect(echo.arg("cjk") == .one("東京"))
        #expect(scalars(echo.arg("combining")?.single) == scalars("e\u{301}"), "combining mark must not be normalized")
        #expect(echo.arg("empty") == .one(""))
        #expect(echo.arg("ids") == .many(["1", "2"]))
        #expect(echo.arg("names") == .many(["x y", "東京"]))
        #expect(echo.arg("yes") == .one("true"))
        #expect(echo.arg("no") == .one("false"))
        #expect(echo.arg("tenth") == .one("0.1"))
        #expect(echo.arg("max") == .one("9223372036854775807"))
        #expect(echo.arg("umax") == .one("18446744073709551615"))
        #expect(echo.arg("when") == .one("2024-05-01T12:00:00Z"))
        #expect(echo.arg("uuid") == .one("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(echo.arg("missing") == nil)
        #expect(echo.arg("東京 key&=+") == .one("v"))
        #expect(echo.arg("d1") == .one(Tricky.reserved))
        #expect(echo.arg("d2") == .one("👍🏽🇯🇵"))
        #expect(echo.arg("d 3&=") == .one("東京"))
        #expect(echo.arg("verbose") == .one(""))
        #expect(echo.arg("quiet") == nil)

        let expectedKeys: Set = [
            "reserved", "skin", "flag", "cjk", "combining", "empty", "ids", "names", "yes", "no", "tenth", "max",
            "umax", "when", "uuid", "東京 key&=+", "d1", "d2", "d 3&=", "verbose",
        ]
        #expect(Set(echo.args.keys) == expectedKeys)

        // `+` must travel as %2B (a raw `+` would read as a space), space as %20.
        #expect(echo.url.contains("reserved=a%2Bb%20c%26d%3De%23f%25g"), "url: \(echo.url)")
        // @KeyQuery(true) is the bare key, without `=`; @KeyQuery(false) is absent.
        let query = try #require(echo.url.split(separator: "?", maxSplits: 1).last)
        let items = query.split(separator: "&").map(String.init)
        #expect(items.contains("verbose"), "url: \(echo.url)")
        #expect(!items.contains { $0.hasPrefix("verbose=") })
        #expect(!items.contains { $0.hasPrefix("quiet") })
        // Declaration order is kept.
        #expect(items.first?.hasPrefix("reserved=") == true)
        #expect(items.last == "verbose")
    }

    @Test("A tricky @Query / @QueryDict value survives the trip", arguments: Tricky.values)
    func singleQueryValue(_ value: String) async throws {
        let echo = try await perform(SingleQueryRequest(value)).get()

        #expect(scalars(echo.arg("v")?.single) == scalars(value))
        #expect(scalars(echo.arg("d")?.single) == scalars(value))
        #expect(echo.arg("k" + value) == .one("x"), "keys: \(echo.args.keys.sorted())")
        #expect(echo.args.count == 3)
    }

    @Test("A tricky @Field value survives the trip", arguments: Tricky.values)
    func singleFieldValue(_ value: String) async throws {
        let echo = try await perform(SingleFieldRequest(value)).get()

        #expect(scalars(echo.field("v")?.single) == scalars(value))
        #expect(echo.field("k" + value) == .one("x"), "keys: \(echo.form.keys.sorted())")
        #expect(echo.form.count == 2)
        #expect(echo.args.isEmpty)
    }

    @Test("@Header and @HeaderDict values arrive; nil sends nothing; Accept comes from the parser")
    func headers() async throws {
        let request = HeaderEchoRequest()
        let echo = try await perform(request).get()

        #expect(echo.header("X-Custom-Token") == Tricky.reserved)
        #expect(echo.header("X-Lower-Case") == "lower")
        #expect(echo.header("X-Absent") == nil)
        #expect(echo.header("X-Quoted") == request.quoted)
        #expect(echo.header("X-Dict-One") == "1")
        #expect(echo.header("X-Dict-Two") == "two words")
        #expect(echo.header("X-Dict-Auth") == "Bearer abc.DEF-123_~+/=")
        #expect(echo.header("Accept") == "application/json")
        #expect(echo.header("Content-Type") == nil)
        #expect(echo.data.isEmpty)
    }

    @Test("An @Header(\"Accept\") replaces the parser's Accept")
    func acceptOverride() async throws {
        let echo = try await perform(AcceptOverrideRequest()).get()
        #expect(echo.header("Accept") == "application/vnd.apikit+json")
    }

    @Test("@Field values arrive as a form body", arguments: bodyMethods)
    func form(_ method: HTTPMethod) async throws {
        var request = FormEchoRequest()
        request.method = method
        let echo = try await perform(request).get()

        #expect(echo.method == method.rawValue)
        #expect(echo.header("Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(echo.field("reserved") == .one(Tricky.reserved))
        #expect(echo.field("skin") == .one("👍🏽"))
        #expect(echo.field("flag") == .one("🇯🇵"))
        #expect(echo.field("cjk") == .one("東京"))
        #expect(scalars(echo.field("combining")?.single) == scalars("e\u{301}"))
        #expect(echo.field("empty") == .one(""))
        #expect(echo.field("spaced") == .one(" a  b "))
        #expect(echo.field("ids") == .many(["1", "2"]))
        #expect(echo.field("yes") == .one("true"))
        #expect(echo.field("tenth") == .one("0.1"))
        #expect(echo.field("max") == .one("9223372036854775807"))
        #expect(echo.field("missing") == nil)
        #expect(echo.field("東京 key&=+") == .one("v"))
        #expect(echo.form.count == 12)
        #expect(echo.args.isEmpty)
    }

    @Test("@JSON values arrive as one JSON object", arguments: bodyMethods)
    func json(_ method: HTTPMethod) async throws {
        var request = JSONEchoRequest()
        request.method = method
        let echo = try await perform(request).get()

        #expect(echo.method == method.rawValue)
        #expect(echo.header("Content-Type") == "application/json")
        let body = try #require(echo.json, "httpbin saw no JSON body; data: \(echo.data)")
        #expect(body.profile == JSONEchoRequest.profile)
        #expect(scalars(body.profile.tags.last) == scalars("e\u{301}"))
        #expect(body.matrix == [[1, 2], [], [3]])
        #expect(scalars(body.title) == scalars(Tricky.everything))
        #expect(body.path == "a/b/c")
        #expect(body.empty == "")
        #expect(body.people == [Profile.Address(city: "Köln", lines: [])])
        #expect(body.when == "2024-05-01T12:00:00Z")
        #expect(!echo.data.contains("\"omitted\""))
        #expect(!echo.data.contains("nickname"))
        #expect(echo.data.contains("\"a/b/c\""), "`/` must not be escaped: \(echo.data)")
        #expect(echo.data.contains("9223372036854775807"))
        #expect(echo.args.isEmpty && echo.form.isEmpty)
    }

    @Test("The spec's SetPushRequest sends its TOKEN header and three form fields")
    func setPush() async throws {
        let request = SetPushRequest(
            accessToken: "secret-token",
            pushSystemMessage: true,
            pushReplyMe: true,
            pushFavourite: false
        )
        let response = try await perform(request).get()

        #expect(response.method == "POST")
        #expect(response.url.hasSuffix("/anything/v3/config/set_push"))
        #expect(response.form == ["push_system_msg": "true", "push_reply_me": "true", "push_favorited": "false"])
        let token = response.headers.first { $0.key.lowercased() == "token" }?.value
        #expect(token == "secret-token")
    }

    @Test("SetPushRequest with nil values sends neither header nor fields")
    func setPushNil() async throws {
        let response = try await perform(SetPushRequest(pushReplyMe: true)).get()

        #expect(response.form == ["push_reply_me": "true"])
        #expect(!response.headers.keys.contains { $0.lowercased() == "token" })
    }

    @Test("An empty header value is sent; a tab inside a value is kept; a declared Content-Type replaces APIKit's")
    func headerEdges() async throws {
        let echo = try await perform(HeaderEdgeRequest()).get()

        #expect(echo.header("X-Empty") == "", "headers: \(echo.headers)")
        #expect(echo.header("X-Tabbed") == "a\tb")
        #expect(echo.header("Content-Type") == "application/json; charset=utf-8")
        #expect(echo.json == JSONEchoBody.Small(name: "東京"))
    }

    @Test("A base with a path prefix and a query keeps both; the path is escaped")
    func prefixedBase() async throws {
        var request = PrefixedRequest()
        request.base = try #require(URL(string: HTTPBin.baseURL.absoluteString + "/anything/prefix?fixed=a%2Bb"))
        let echo = try await perform(request).get()

        #expect(echo.arg("fixed") == .one("a+b"))
        #expect(echo.arg("q") == .one("1"))
        // httpbin decodes %2F when it rebuilds the URL; the URL that was sent keeps it.
        #expect(echo.url.contains("/anything/prefix/東京%20x/y"), "url: \(echo.url)")
        let sent = try #require(try request.makeURLRequest().url)
        #expect(sent.absoluteString.hasSuffix("/anything/prefix/%E6%9D%B1%E4%BA%AC%20x/y%2Fz?fixed=a%2Bb&q=1"))
        let query = try #require(echo.url.split(separator: "?", maxSplits: 1).last)
        #expect(query == "fixed=a%2Bb&q=1")
    }

    @Test("A large form body arrives whole")
    func largeForm() async throws {
        let request = LargeFormRequest()
        let echo = try await perform(request).get()
        #expect(echo.field("big")?.single?.count == request.big.count)
        #expect(echo.field("big") == .one(request.big))
    }

    @Test(
        "perform's defaults (URLSession.shared, its delegate queue) work",
        .urlSessionOnly("Request.perform's defaults: URLSession.shared and its delegate queue"))
    func defaultSessionAndQueue() async throws {
        let recorder = CompletionProbe<Result<Echo<NoJSONBody>, RequestError>>()
        let onDelegateQueue = CompletionProbe<Bool>()
        let handle = SingleQueryRequest("shared").perform { result in
            onDelegateQueue.record(OperationQueue.current === URLSession.shared.delegateQueue)
            recorder.record(result)
        }
        let result = try #require(await recorder.first(), "no completion within 120 s")
        let echo = try result.get()
        #expect(echo.arg("v") == .one("shared"))
        #expect(await onDelegateQueue.first(timeout: 120) == true)
        #expect(handle.isFinished)
        #expect(recorder.count == 1)
    }
}
