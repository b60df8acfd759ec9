import Foundation
import Testing

@testable import APIKit

@Suite("makeURLRequest(): encoding and intercept(urlRequest:), without sending")
struct MakeURLRequestTests {
    static let base = URL(string: "https://api.example.com/v1")!

    @Test("the returned request is the one intercept(urlRequest:) produced")
    func appliesRequestInterceptor() throws {
        var request = ProbeRequest(base: Self.base)
        request.token = "t"

        let urlRequest = try request.makeURLRequest()

        #expect(urlRequest.headerValue("X-Intercepted") == "yes")
        #expect(urlRequest.url?.absoluteString == "https://api.example.com/v1/probe?token=t")
        #expect(urlRequest.httpMethod == "GET")
        #expect(request.log.names == ["build", "intercept(urlRequest:)"])
    }

    @Test("an interceptor that changes the URL and timeout is honoured")
    func interceptorReplacesFields() throws {
        struct Rewriting: Request, RequestConfiguration {
            var base: URL { MakeURLRequestTests.base }
            var path: String { "a" }
            var method: HTTPMethod { .delete }
            var configuration: Self { self }
            var parser: RawDataParser { RawDataParser() }
            func intercept(urlRequest: URLRequest) throws -> URLRequest {
                var request = urlRequest
                request.url = URL(string: "https://mirror.example.com/b")
                request.timeoutInterval = 7
                return request
            }
        }

        let urlRequest = try Rewriting().makeURLRequest()

        #expect(urlRequest.url?.absoluteString == "https://mirror.example.com/b")
        #expect(urlRequest.timeoutInterval == 7)
        #expect(urlRequest.httpMethod == "DELETE")
    }

    @Test("an interceptor error becomes .requestInterceptorFailed with the built URL in its context")
    func interceptorErrorIsMapped() throws {
        let request = ProbeRequest(base: Self.base, method: .put, failing: .requestInterceptor)

        let error: RequestError
        do {
            _ = try request.makeURLRequest()
            Issue.record("expected an error")
            return
        } catch let caught {
            error = caught
        }

        guard case .requestInterceptorFailed(let underlying, let context) = error else {
            Issue.record("expected .requestInterceptorFailed, got \(error)")
            return
        }
        #expect(underlying as? ProbeFailure == ProbeFailure(stage: "intercept(urlRequest:)"))
        #expect(context.url?.absoluteString == "https://api.example.com/v1/probe")
        #expect(context.method == .put)
        #expect(context.requestType == "ProbeRequest")
        #expect(error.stage == .requestInterceptor)
    }

    @Test("a build error becomes .buildFailed and the interceptor is not called")
    func buildErrorSkipsInterceptor() throws {
        var request = ProbeRequest(base: Self.base)
        request.authorization = "line\r\nbreak"

        let error: RequestError
        do {
            _ = try request.makeURLRequest()
            Issue.record("expected an error")
            return
        } catch let caught {
            error = caught
        }

        guard case .buildFailed(.invalidHeaderValue(name: "Authorization", field: "authorization"), let context) = error
        else {
            Issue.record("expected .buildFailed(.invalidHeaderValue), got \(error)")
            return
        }
        #expect(context.url == nil)
        #expect(request.log.names == ["build"])
        #expect(!error.description.contains("break"))
    }

    @Test("perform sends exactly what makeURLRequest() returns")
    func performSendsMadeRequest() async throws {
        let endpoint = StubEndpoint(.status(200))
        var request = ProbeRequest(base: endpoint.base)
        request.token = "a b"
        request.authorization = "Bearer x"
        let made = try request.makeURLRequest()

        let (result, _) = await request.performProbed()

        _ = try #require(result).get()
        let sent = try #require(endpoint.receivedRequests.first)
        #expect(sent.url == made.url)
        #expect(sent.httpMethod == made.httpMethod)
        for (name, value) in made.allHTTPHeaderFields ?? [:] {
            #expect(sent.headerValue(name) == value, "header \(name)")
        }
    }
}
