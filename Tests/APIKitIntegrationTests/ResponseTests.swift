import APIKit
import Testing

/// A parsed body with the response's status code and declared length.
struct Received<Object: Sendable>: Sendable {
    var object: Object
    var statusCode: Int?
    var expectedContentLength: Int64
}

/// A GET of any httpbin path, read by any parser.
struct GetRequest<P: Parser & Sendable>: Request, RequestConfiguration where P.Object: Sendable {
    var path: String
    var parser: P
    @Query("seed") var seed: Int? = nil

    var base = HTTPBin.baseURL
    var method: HTTPMethod = .get
    var configuration: Self { self }

    func response(from object: P.Object, urlResponse: URLResponse) throws -> Received<P.Object> {
        Received(
            object: object,
            statusCode: (urlResponse as? HTTPURLResponse)?.statusCode,
            expectedContentLength: urlResponse.expectedContentLength
        )
    }
}

/// `/status/N` read by a JSON parser, which would fail on httpbin's empty bodies: a
/// status error proves the status is checked before parsing.
struct StatusRequest: Request, RequestConfiguration {
    var code: Int

    var base = HTTPBin.baseURL
    var path: String { "status/\(code)" }
    var method: HTTPMethod = .get
    var configuration: Self { self }
    var parser: JSONParser<[String: String]> { JSONParser() }
}

/// Accepts a 404 (and keeps the default check for everything else), then parses the body.
struct Accepting404Request: Request, RequestConfiguration {
    var code: Int

    var base = HTTPBin.baseURL
    var path: String { "status/\(code)" }
    var method: HTTPMethod = .get
    var configuration: Self { self }
    var parser: StringParser { StringParser() }

    func intercept(urlResponse: URLResponse) throws {
        if (urlResponse as? HTTPURLResponse)?.statusCode == 404 { return }
        try validateStatusCode(of: urlResponse)
    }

    func response(from object: String, urlResponse: URLResponse) throws -> Received<String> {
        Received(
            object: object,
            statusCode: (urlResponse as? HTTPURLResponse)?.statusCode,
            expectedContentLength: urlResponse.expectedContentLength
        )
    }
}

/// A response interceptor that rejects everything with its own error.
struct RejectingResponseRequest: Request, RequestConfiguration {
    struct Rejected: Error, Equatable {}

    var base = HTTPBin.baseURL
    var path = "anything/rejected"
    var method: HTTPMethod = .get
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }

    func intercept(urlResponse: URLResponse) throws {
        throw Rejected()
    }
}

@Suite("Status codes", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct StatusCodeTests {
    @Test("A status outside 200..<300 fails response validation, not parsing", arguments: [404, 502, 500, 418, 400])
    func rejectedStatus(_ code: Int) async throws {
        let result = try await perform(StatusRequest(code: code))
        let error = try #require(result.failure)

        guard case .unacceptableStatusCode(let status, _, let response, let context) = error else {
            Issue.record("expected unacceptableStatusCode(\(code)), got \(error)")
            return
        }
        #expect(status == code)
        #expect(response.statusCode == code)
        #expect(error.stage == .responseValidation)
        #expect(error.statusCode == code)
        #expect(error.underlyingError == nil)
        #expect(context.requestType == "StatusRequest")
        #expect(context.method == .get)
        #expect(context.url?.path == "/status/\(code)")
        #expect(error.description.contains("status code \(code)"))
    }

    @Test("A rejected response's body is kept as received")
    func rejectedBodyIsKept() async throws {
        // httpbin's 500 has an empty body (Content-Length: 0) ...
        let serverError = try #require(try await perform(StatusRequest(code: 500)).failure)
        guard case .unacceptableStatusCode(500, let emptyBody, let response, _) = serverError else {
            Issue.record("expected unacceptableStatusCode(500), got \(serverError)")
            return
        }
        #expect(emptyBody == Data())
        #expect(response.expectedContentLength == 0)
        #expect(serverError.body == Data())

        // ... its 418 has one: the teapot.
        let teapot = try #require(try await perform(StatusRequest(code: 418)).failure)
        let body = try #require(teapot.body)
        #expect(String(decoding: body, as: UTF8.self).contains("-=[ teapot ]=-"))
        #expect(Int64(body.count) == teapot.response?.expectedContentLength)
    }

    @Test("intercept(urlResponse:) that accepts 404 lets the body be parsed")
    func accepting404() async throws {
        let received = try await perform(Accepting404Request(code: 404)).get()
        #expect(received.statusCode == 404)
        #expect(received.object == "")

        let other = try #require(try await perform(Accepting404Request(code: 500)).failure)
        guard case .unacceptableStatusCode(500, _, _, _) = other else {
            Issue.record("the default check must still reject 500, got \(other)")
            return
        }
    }

    @Test("Another error from intercept(urlResponse:) is a responseInterceptorFailed with the body")
    func responseInterceptorError() async throws {
        let error = try #require(try await perform(RejectingResponseRequest()).failure)
        guard case .responseInterceptorFailed(let underlying, let body, let response, _) = error else {
            Issue.record("expected responseInterceptorFailed, got \(error)")
            return
        }
        #expect(underlying is RejectingResponseRequest.Rejected)
        #expect(!body.isEmpty)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(error.stage == .responseValidation)
    }
}

@Suite("Response bodies through each parser", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct ResponseBodyTests {
    @Test("/robots.txt through StringParser")
    func robots() async throws {
        let received = try await perform(GetRequest(path: "robots.txt", parser: StringParser())).get()
        #expect(received.statusCode == 200)
        #expect(received.object == "User-agent: *\nDisallow: /deny\n")
    }

    @Test("/html through StringParser")
    func html() async throws {
        let received = try await perform(GetRequest(path: "/html", parser: StringParser())).get()
        #expect(received.object.hasPrefix("<!DOCTYPE html>"))
        #expect(received.object.contains("Herman Melville - Moby-Dick"))
        #expect(Int64(received.object.utf8.count) == received.expectedContentLength)
    }

    @Test("/encoding/utf8 through StringParser keeps every UTF-8 character")
    func utf8() async throws {
        let received = try await perform(GetRequest(path: "encoding/utf8", parser: StringParser())).get()
        let text = received.object
        #expect(text.contains("Markus Kuhn [ˈmaʳkʊs kuːn]"))
        #expect(text.contains("∮ E⋅da = Q,  n → ∞, ∑ f(i) = ∏ g(i)"))
        #expect(text.contains("Hello world, Καλημέρα κόσμε, コンニチハ"))
        #expect(Int64(text.utf8.count) == received.expectedContentLength)
    }

    @Test("A form body (/base64) through FormURLEncodedDataParser")
    func formBody() async throws {
        let encoded = Data("a=1&b=x+y%2Bz".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        let received = try await perform(GetRequest(path: "base64/\(encoded)", parser: FormURLEncodedDataParser()))
            .get()
        #expect(received.object == ["a": "1", "b": "x y+z"])
    }

    @Test("/bytes/64?seed=1 through RawDataParser gives the same 64 bytes every time")
    func rawBytes() async throws {
        let request = GetRequest(path: "bytes/64", parser: RawDataParser(), seed: 1)
        let first = try await perform(request).get()
        #expect(first.object.count == 64)
        #expect(first.expectedContentLength == 64)

        let second = try await perform(request).get()
        #expect(second.object == first.object)
        // httpbin's generator for seed 1 starts with these bytes.
        #expect(Array(first.object.prefix(8)) == [0x44, 0x20, 0x82, 0x3C, 0xFD, 0xE6, 0xF1, 0xC2])
    }

    @Test("/status/204 through NoContentParser")
    func noContent() async throws {
        let received = try await perform(GetRequest(path: "status/204", parser: NoContentParser())).get()
        #expect(received.statusCode == 204)
        #expect(received.object == NoContent())
    }

    @Test("/html through a JSONParser fails at parsing, with the body kept")
    func jsonParseFailure() async throws {
        let html = try await perform(GetRequest(path: "html", parser: RawDataParser())).get().object
        let error = try #require(
            try await perform(GetRequest(path: "html", parser: JSONParser<[String: String]>())).failure)

        guard case .parsingFailed(let underlying, let body, let response, let context) = error else {
            Issue.record("expected parsingFailed, got \(error)")
            return
        }
        #expect(error.stage == .parsing)
        #expect(body == html)
        #expect(error.body == html)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(context.url?.path == "/html")
        let parsingError = try #require(underlying as? ParsingError)
        #expect(parsingError.reason == .invalidJSON)
        #expect(parsingError.bodyLength == html.count)
        // The description is safe to log: no body bytes.
        #expect(!error.description.contains("Moby"))
    }
}
