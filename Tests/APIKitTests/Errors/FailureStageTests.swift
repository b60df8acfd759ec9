import Foundation
import Testing

@testable import APIKit

@Suite("perform: each failing stage maps to its RequestError and stops the later stages")
struct FailureStageTests {
    @Test("intercept(urlRequest:) throws → .requestInterceptorFailed; nothing is sent")
    func requestInterceptorFails() async throws {
        let endpoint = StubEndpoint(.status(200, body: "unused"))
        let request = ProbeRequest(base: endpoint.base, failing: .requestInterceptor)

        let (result, probe) = await request.performProbed()

        let error = try #require(result?.errorValue)
        guard case .requestInterceptorFailed(let underlying, let context) = error else {
            Issue.record("expected .requestInterceptorFailed, got \(error)")
            return
        }
        #expect(underlying as? ProbeFailure == ProbeFailure(stage: "intercept(urlRequest:)"))
        #expect(error.stage == .requestInterceptor)
        #expect(context.url?.absoluteString == "https://\(endpoint.host)/api/probe")
        #expect(context.method == .get)
        #expect(context.requestType == "ProbeRequest")
        #expect(request.log.names == ["build", "intercept(urlRequest:)"])
        // a request sent anyway would hold the completion until the stub, which records it, answered
        #expect(await probe.released(), "the completion is still held")
        #expect(endpoint.receivedRequests.isEmpty)
    }

    @Test("a transport error → .transportFailed carrying the URLError; no response stage runs")
    func transportFails() async throws {
        let endpoint = StubEndpoint(.failure(.notConnectedToInternet))
        let request = ProbeRequest(base: endpoint.base)

        let (result, _) = await request.performProbed()

        let error = try #require(result?.errorValue)
        guard case .transportFailed(let underlying, let context) = error else {
            Issue.record("expected .transportFailed, got \(error)")
            return
        }
        #expect((underlying as? URLError)?.code == .notConnectedToInternet)
        #expect(error.stage == .transport)
        #expect(context.url?.host == endpoint.host)
        #expect(error.response == nil)
        #expect(error.body == nil)
        #expect(error.statusCode == nil)
        #expect(request.log.names == ["build", "intercept(urlRequest:)"])
        #expect(endpoint.receivedRequests.count == 1)
    }

    @Test(
        "503 with an HTML body → .unacceptableStatusCode(503, body: html) under the default interceptor; the parser is not called"
    )
    func unacceptableStatusCodeCarriesBody() async throws {
        let html = "<html><body><h1>503 Service Unavailable</h1></body></html>"
        let endpoint = StubEndpoint(.status(503, body: html, headers: ["Content-Type": "text/html"]))
        let request = DefaultHooksRequest(base: endpoint.base)

        let (result, _) = await request.performProbed()

        let error = try #require(result?.errorValue)
        guard case .unacceptableStatusCode(let code, let body, let response, let context) = error else {
            Issue.record("expected .unacceptableStatusCode, got \(error)")
            return
        }
        #expect(code == 503)
        #expect(body == Data(html.utf8))
        #expect(response.statusCode == 503)
        #expect(response.url?.host == endpoint.host)
        #expect(context.url?.absoluteString == "https://\(endpoint.host)/api/plain")
        #expect(context.requestType == "DefaultHooksRequest")
        #expect(error.stage == .responseValidation)
        #expect(error.statusCode == 503)
        #expect(error.body == Data(html.utf8))
        #expect(request.log.names.isEmpty, "the parser must not run for a rejected status code")
    }

    @Test(
        "intercept(urlResponse:) throws its own error → .responseInterceptorFailed with body and response; no parsing")
    func responseInterceptorFails() async throws {
        let endpoint = StubEndpoint(.status(200, body: "payload"))
        let request = ProbeRequest(base: endpoint.base, failing: .responseInterceptor)

        let (result, _) = await request.performProbed()

        let error = try #require(result?.errorValue)
        guard case .responseInterceptorFailed(let underlying, let body, let response, let context) = error else {
            Issue.record("expected .responseInterceptorFailed, got \(error)")
            return
        }
        #expect(underlying as? ProbeFailure == ProbeFailure(stage: "intercept(urlResponse:)"))
        #expect(body == Data("payload".utf8))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(context.url?.host == endpoint.host)
        #expect(error.stage == .responseValidation)
        #expect(request.log.names == ["build", "intercept(urlRequest:)", "intercept(urlResponse:)"])
    }

    @Test("an UnacceptableStatusCode thrown by a custom interceptor is reported as .unacceptableStatusCode")
    func customInterceptorThrowingUnacceptableStatusCode() async throws {
        struct Strict: Request, RequestConfiguration {
            var base: URL
            var path: String { "strict" }
            var method: HTTPMethod { .get }
            var configuration: Self { self }
            var parser: RawDataParser { RawDataParser() }
            func intercept(urlResponse: URLResponse) throws {
                try validateStatusCode(of: urlResponse, acceptable: 200..<201)
            }
        }
        let endpoint = StubEndpoint(.status(202, body: "accepted"))

        let (result, _) = await Strict(base: endpoint.base).performProbed()

        let error = try #require(result?.errorValue)
        guard case .unacceptableStatusCode(202, let body, _, _) = error else {
            Issue.record("expected .unacceptableStatusCode(202, …), got \(error)")
            return
        }
        #expect(body == Data("accepted".utf8))
    }

    @Test("the parser throws → .parsingFailed with the parser's error and the body; response(from:) is not called")
    func parserFails() async throws {
        let endpoint = StubEndpoint(.status(200, body: "not what the parser wants"))
        let request = ProbeRequest(base: endpoint.base, failing: .parser)

        let (result, _) = await request.performProbed()

        let error = try #require(result?.errorValue)
        guard case .parsingFailed(let underlying, let body, let response, let context) = error else {
            Issue.record("expected .parsingFailed, got \(error)")
            return
        }
        #expect(underlying as? ProbeFailure == ProbeFailure(stage: "parse"))
        #expect(body == Data("not what the parser wants".utf8))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(context.url?.host == endpoint.host)
        #expect(error.stage == .parsing)
        #expect(request.log.names == ["build", "intercept(urlRequest:)", "intercept(urlResponse:)", "parse"])
    }

    @Test("a built-in parser's ParsingError is carried by .parsingFailed")
    func jsonParserFails() async throws {
        struct Payload: Decodable, Sendable { var id: Int }
        struct JSONProbe: JSONDecodableRequest, RequestConfiguration {
            typealias Response = Payload
            var base: URL
            var path: String { "json" }
            var method: HTTPMethod { .get }
            var configuration: Self { self }
        }
        let endpoint = StubEndpoint(.status(200, body: "{\"id\": \"seven\"}"))

        let (result, _) = await JSONProbe(base: endpoint.base).performProbed()

        let error = try #require(result?.errorValue)
        #expect(error.stage == .parsing)
        let parsing = try #require(error.underlyingError as? ParsingError)
        #expect(parsing.reason == .typeMismatch(expected: "Int"))
        #expect(error.body == Data("{\"id\": \"seven\"}".utf8))
    }

    @Test("response(from:urlResponse:) throws → .responseConversionFailed with the response")
    func responseConversionFails() async throws {
        let endpoint = StubEndpoint(.status(201, body: "made"))
        let request = ProbeRequest(base: endpoint.base, failing: .responseConversion)

        let (result, _) = await request.performProbed()

        let error = try #require(result?.errorValue)
        guard case .responseConversionFailed(let underlying, let response, let context) = error else {
            Issue.record("expected .responseConversionFailed, got \(error)")
            return
        }
        #expect(underlying as? ProbeFailure == ProbeFailure(stage: "response(from:)"))
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(context.url?.host == endpoint.host)
        #expect(error.stage == .responseConversion)
        #expect(error.statusCode == 201)
        #expect(error.body == nil)
        #expect(
            request.log.names == [
                "build", "intercept(urlRequest:)", "intercept(urlResponse:)", "parse", "response(from:)",
            ]
        )
    }

    @Test("an invalid declaration → .buildFailed; no hook runs and nothing is sent")
    func buildFails() async throws {
        let endpoint = StubEndpoint(.status(200))
        let request = ProbeRequest(base: endpoint.base, method: HTTPMethod(rawValue: "BAD METHOD"))

        let (result, probe) = await request.performProbed()

        let error = try #require(result?.errorValue)
        guard case .buildFailed(.invalidMethod(let method), let context) = error else {
            Issue.record("expected .buildFailed(.invalidMethod), got \(error)")
            return
        }
        #expect(method == HTTPMethod(rawValue: "BAD METHOD"))
        #expect(context.url == nil)
        #expect(context.method == HTTPMethod(rawValue: "BAD METHOD"))
        #expect(error.stage == .build)
        #expect(!request.log.names.contains("intercept(urlRequest:)"))
        // a request sent anyway would hold the completion until the stub, which records it, answered
        #expect(await probe.released(), "the completion is still held")
        #expect(endpoint.receivedRequests.isEmpty)
    }

    @Test("the stages of RequestError are listed in pipeline order")
    func stageOrder() {
        #expect(
            RequestError.Stage.allCases == [
                .build, .requestInterceptor, .transport, .responseValidation, .parsing, .responseConversion, .cancelled,
            ]
        )
    }
}
