import Foundation
import Testing

@testable import APIKit

@Suite("perform: status code validation")
struct StatusCodeValidationTests {
    /// A request with every default: interceptors, and `Response == Data` from `RawDataParser`.
    struct RawRequest: Request, RequestConfiguration {
        var base: URL
        var path: String { "raw" }
        var method: HTTPMethod { .get }
        var configuration: Self { self }
        var parser: RawDataParser { RawDataParser() }
    }

    @Test("the default intercept(urlResponse:) accepts 2xx", arguments: [200, 201, 202, 204, 250, 299])
    func defaultAccepts(statusCode: Int) async throws {
        let body = statusCode == 204 ? "" : "ok \(statusCode)"
        let endpoint = StubEndpoint(.status(statusCode, body: body))

        let (result, _) = await RawRequest(base: endpoint.base).performProbed()

        #expect(try #require(result).get() == Data(body.utf8))
    }

    @Test(
        "the default intercept(urlResponse:) rejects everything outside 200..<300, keeping the body",
        arguments: [100, 199, 300, 301, 304, 399, 400, 401, 404, 418, 500, 503, 599]
    )
    func defaultRejects(statusCode: Int) async throws {
        let body = "rejected \(statusCode)"
        let endpoint = StubEndpoint(.status(statusCode, body: body))

        let (result, _) = await RawRequest(base: endpoint.base).performProbed()

        let error = try #require(result?.errorValue)
        guard case .unacceptableStatusCode(let code, let carried, let response, _) = error else {
            Issue.record("expected .unacceptableStatusCode(\(statusCode), …), got \(error)")
            return
        }
        #expect(code == statusCode)
        #expect(carried == Data(body.utf8))
        #expect(response.statusCode == statusCode)
        #expect(error.statusCode == statusCode)
    }

    @Test(
        "validateStatusCode(of:acceptable:) with 200..<400 accepts 3xx and rejects 4xx",
        arguments: [(200, true), (304, true), (399, true), (199, false), (400, false), (500, false)]
    )
    func customRange(statusCode: Int, accepted: Bool) async throws {
        let endpoint = StubEndpoint(.status(statusCode, body: "b"))

        let (result, _) = await CustomRangeRequest(base: endpoint.base, acceptable: 200..<400).performProbed()

        switch try #require(result) {
        case .success(let data):
            #expect(accepted)
            #expect(data == Data("b".utf8))
        case .failure(let error):
            #expect(!accepted)
            guard case .unacceptableStatusCode(statusCode, let body, _, _) = error else {
                Issue.record("expected .unacceptableStatusCode(\(statusCode), …), got \(error)")
                return
            }
            #expect(body == Data("b".utf8))
        }
    }

    @Test("validateStatusCode(of:acceptable:) without a network: HTTP responses are checked, others pass")
    func validateDirectly() throws {
        let url = URL(string: "https://api.example.com/x")!
        let request = CustomRangeRequest(base: url, acceptable: 200..<300)
        func http(_ code: Int) -> HTTPURLResponse {
            HTTPURLResponse(url: url, statusCode: code, httpVersion: "HTTP/1.1", headerFields: nil)!
        }

        #expect(throws: Never.self) { try request.validateStatusCode(of: http(200)) }
        #expect(throws: Never.self) { try request.validateStatusCode(of: http(299)) }
        #expect(throws: UnacceptableStatusCode(statusCode: 300)) { try request.validateStatusCode(of: http(300)) }
        #expect(throws: UnacceptableStatusCode(statusCode: 199)) { try request.validateStatusCode(of: http(199)) }
        #expect(throws: Never.self) { try request.validateStatusCode(of: http(404), acceptable: 400..<500) }
        #expect(throws: UnacceptableStatusCode(statusCode: 200)) {
            try request.validateStatusCode(of: http(200), acceptable: 400..<500)
        }
        let notHTTP = URLResponse(url: url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
        #expect(throws: Never.self) { try request.validateStatusCode(of: notHTTP, acceptable: 0..<0) }
    }

    @Test("outcome: a non-HTTP response rejected with UnacceptableStatusCode is a .responseInterceptorFailed")
    func unacceptableStatusCodeWithoutHTTPResponse() throws {
        struct Rejecting: Request, RequestConfiguration {
            var base: URL { URL(string: "https://api.example.com")! }
            var path: String { "" }
            var method: HTTPMethod { .get }
            var configuration: Self { self }
            var parser: RawDataParser { RawDataParser() }
            func intercept(urlResponse: URLResponse) throws {
                throw UnacceptableStatusCode(statusCode: 500)
            }
        }
        let request = Rejecting()
        let context = request.initialContext
        let response = URLResponse(
            url: URL(string: "https://api.example.com")!,
            mimeType: nil,
            expectedContentLength: 1,
            textEncodingName: nil
        )

        let error = try #require(
            request.outcome(data: Data("x".utf8), urlResponse: response, context: context).errorValue
        )

        guard case .responseInterceptorFailed(let underlying, let body, _, _) = error else {
            Issue.record("expected .responseInterceptorFailed, got \(error)")
            return
        }
        #expect(underlying as? UnacceptableStatusCode == UnacceptableStatusCode(statusCode: 500))
        #expect(body == Data("x".utf8))
    }
}
