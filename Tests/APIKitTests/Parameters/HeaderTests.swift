import APIKit
import Foundation
import Testing

@Suite("@Header and @HeaderDict")
struct HeaderTests {
    struct Headers: RequestConfiguration, Sendable {
        @Header("X-Token") var token = "abc"
        @Header("X-Missing") var missing = nil
        @HeaderDict var extra = ["X-Client": "ios", "X-Version": "4.2"]
        @Header("X-Unicode") var unicode = "東京 ok\tafter tab"
    }

    @Test("set headers are sent, nil headers are not, @HeaderDict is merged")
    func headers() throws {
        let request = try urlRequest(Headers())
        #expect(request.header("X-Token") == "abc")
        #expect(request.header("X-Missing") == nil)
        #expect(request.header("X-Client") == "ios")
        #expect(request.header("X-Version") == "4.2")
        #expect(request.header("X-Unicode") == "東京 ok\tafter tab")
    }

    struct NoOverrides: RequestConfiguration, Sendable {
        @JSON("a") var a = 1
    }

    @Test("the parser's content type becomes Accept and the body kind sets Content-Type")
    func defaults() throws {
        let request = try TestJSONRequest(configuration: NoOverrides()).makeURLRequest()
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("Content-Type") == "application/json")
        let raw = try urlRequest(NoOverrides(), method: .post)
        #expect(raw.header("Accept") == nil)  // RawDataParser has no content type
    }

    struct Overrides: RequestConfiguration, Sendable {
        @JSON("a") var a = 1
        @Header("content-type") var contentType = "application/vnd.api+json"
        @HeaderDict var more = ["ACCEPT": "application/vnd.api+json"]
    }

    @Test("a declared Accept or Content-Type, in any case, replaces the default")
    func overrides() throws {
        let request = try TestJSONRequest(configuration: Overrides()).makeURLRequest()
        #expect(request.header("Accept") == "application/vnd.api+json")
        #expect(request.header("Content-Type") == "application/vnd.api+json")
        #expect(request.allHTTPHeaderFields?.count == 2)
    }

    struct Injection: RequestConfiguration, Sendable {
        @Header("X-Evil") var evil = "ok\r\nSet-Cookie: stolen=1"
    }

    struct NullByte: RequestConfiguration, Sendable {
        @Header("X-Null") var null = "a\u{0}b"
    }

    struct BadName: RequestConfiguration, Sendable {
        @Header("X Bad:Name") var bad = "v"
    }

    struct BadDictName: RequestConfiguration, Sendable {
        @HeaderDict var extra = ["X-Ok": "1", "Bad\nName": "2"]
    }

    @Test("CR, LF or NUL in a value is a build error naming header and field, without the value")
    func headerInjection() throws {
        let error = try #require(buildError(Injection()))
        guard case .invalidHeaderValue(name: "X-Evil", field: "evil") = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(!String(describing: error).contains("stolen"))
        let null = try #require(buildError(NullByte()))
        guard case .invalidHeaderValue(name: "X-Null", field: "null") = null else {
            Issue.record("unexpected \(null)")
            return
        }
    }

    @Test("a name that is not an HTTP token is a build error naming the field")
    func badNames() throws {
        let error = try #require(buildError(BadName()))
        guard case .invalidHeaderName("X Bad:Name", field: "bad") = error else {
            Issue.record("unexpected \(error)")
            return
        }
        let dict = try #require(buildError(BadDictName()))
        guard case .invalidHeaderName("Bad\nName", field: "extra") = dict else {
            Issue.record("unexpected \(dict)")
            return
        }
        #expect(!String(describing: dict).contains("\n"))
    }

    struct Twice: RequestConfiguration, Sendable {
        @Header("X-Token") var first = "a"
        @HeaderDict var extra = ["x-token": "b"]
    }

    @Test("one header name declared twice, in any case, is a build error naming both fields")
    func duplicates() throws {
        let error = try #require(buildError(Twice()))
        guard case .duplicateHeader("x-token", fields: ["first", "extra"]) = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    @propertyWrapper
    struct Bearer: HeaderProtocol {
        var wrappedValue: String?
        var headerFields: [HeaderField] {
            wrappedValue.map { [HeaderField(name: "Authorization", value: "Bearer \($0)")] } ?? []
        }
    }

    struct UsesBearer: RequestConfiguration, Sendable {
        @Bearer var token: String? = "t0k"
        @Bearer var none: String? = nil
    }

    @Test("a user's own HeaderProtocol wrapper is sent and checked like the built-in ones")
    func customWrapper() throws {
        #expect(try urlRequest(UsesBearer()).header("Authorization") == "Bearer t0k")
    }
}

/// A request decoding JSON, to see the parser's `Accept`.
struct TestJSONRequest<Configuration: RequestConfiguration & Sendable>: Request {
    var base = URL(string: "https://api.example.com")!
    var path = "items"
    var method: HTTPMethod = .post
    var configuration: Configuration
    var parser: JSONParser<[String: Int]> { JSONParser() }
}
