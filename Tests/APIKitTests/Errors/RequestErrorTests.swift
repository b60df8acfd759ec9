import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("RequestError: descriptions and accessors")
struct RequestErrorTests {
    static let secretURL = URL(
        string: "https://user:PASSWORDSECRET@api.example.com/v1/login?token=SECRET&flag&empty=#FRAGMENTSECRET")!
    static let redactedURL = "https://api.example.com/v1/login?token=***&***&empty=***"
    static let context = RequestContext(
        requestType: "LoginRequest",
        method: .post,
        url: secretURL,
        declaredLocation: "https://api.example.com/v1 + \"login\""
    )
    static let body = Data("BODYSECRET <html>".utf8)
    static let response = HTTPURLResponse(
        url: secretURL,
        statusCode: 503,
        httpVersion: "HTTP/1.1",
        headerFields: ["Set-Cookie": "session=HEADERSECRET", "Content-Type": "text/html"]
    )!

    /// The error a built-in parser throws for `body`, which is not JSON.
    static func parsingError(_ body: Data) -> any Error {
        do {
            _ = try JSONParser<[String: Int]>().parse(data: body)
            return ProbeFailure(stage: "unexpectedly parsed")
        } catch {
            return error
        }
    }

    enum Case: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case buildFailed, requestInterceptorFailed, transportFailed, unacceptableStatusCode
        case responseInterceptorFailed, parsingFailed, responseConversionFailed, notCached, cancelled
        var testDescription: String { rawValue }

        var error: RequestError {
            let context = RequestErrorTests.context
            let body = RequestErrorTests.body
            let response = RequestErrorTests.response
            return switch self {
            case .buildFailed:
                .buildFailed(.invalidHeaderValue(name: "Authorization", field: "token"), context: context)
            case .requestInterceptorFailed: .requestInterceptorFailed(ProbeFailure(stage: "sign"), context: context)
            case .transportFailed:
                .transportFailed(
                    URLError(
                        .notConnectedToInternet,
                        userInfo: [
                            NSURLErrorFailingURLErrorKey: RequestErrorTests.secretURL
                        ]
                    ),
                    context: context
                )
            case .unacceptableStatusCode: .unacceptableStatusCode(503, body: body, response: response, context: context)
            case .responseInterceptorFailed:
                .responseInterceptorFailed(
                    ProbeFailure(stage: "check"), body: body, response: response, context: context)
            case .parsingFailed:
                .parsingFailed(
                    RequestErrorTests.parsingError(body),
                    body: body,
                    response: response,
                    context: context
                )
            case .responseConversionFailed:
                .responseConversionFailed(ProbeFailure(stage: "convert"), response: response, context: context)
            case .notCached: .notCached(context: context)
            case .cancelled: .cancelled(context: context)
            }
        }

        /// Words in the description that name the stage.
        var stageWords: String {
            switch self {
            case .buildFailed: "could not build the request"
            case .requestInterceptorFailed: "intercept(urlRequest:)"
            case .transportFailed: "transport failed"
            case .unacceptableStatusCode: "status code 503"
            case .responseInterceptorFailed: "intercept(urlResponse:)"
            case .parsingFailed: "could not parse"
            case .responseConversionFailed: "response(from:urlResponse:)"
            case .notCached: "only-if-cached"
            case .cancelled: "cancelled"
            }
        }
    }

    static let secrets = ["SECRET", "PASSWORDSECRET", "HEADERSECRET", "BODYSECRET", "FRAGMENTSECRET", "<html>"]

    @Test("the description names the request and the stage and leaks nothing", arguments: Case.allCases)
    func description(of testCase: Case) {
        let error = testCase.error
        let text = error.description

        #expect(text.hasPrefix("POST \(Self.redactedURL) (LoginRequest): "), "\(text)")
        #expect(text.contains(testCase.stageWords), "\(text)")
        for secret in Self.secrets {
            #expect(!text.contains(secret), "\(text) leaks \(secret)")
        }
        #expect(error.errorDescription == text)
        #expect(error.localizedDescription == text)
        #expect("\(error)" == text)
    }

    @Test("RequestContext redacts query values, user info and fragment")
    func contextRedaction() {
        #expect(Self.context.description == "POST \(Self.redactedURL) (LoginRequest)")
        let keyOnly = RequestContext(
            requestType: "R",
            method: .get,
            url: URL(string: "https://h.example/p?a=1&b&c=x%3Dy&token=SECRET")!,
            declaredLocation: ""
        )
        #expect(keyOnly.description == "GET https://h.example/p?a=***&***&c=***&token=*** (R)")
        let bareToken = RequestContext(
            requestType: "R", method: .get, url: URL(string: "https://h.example/reset?s3cr3t-t0ken&&x=1")!,
            declaredLocation: "")
        #expect(
            bareToken.description == "GET https://h.example/reset?***&&x=*** (R)", "an item without = may be a token")
        let semicolons = RequestContext(
            requestType: "R", method: .get, url: URL(string: "https://h.example/reset?s3cr3t;page=2&a=1;b")!,
            declaredLocation: "")
        #expect(
            semicolons.description == "GET https://h.example/reset?***;page=***&a=***;*** (R)",
            "items separated by ; are redacted one by one")
    }

    @Test("accessors: stage, statusCode, body, response, underlyingError and context", arguments: Case.allCases)
    func accessors(of testCase: Case) throws {
        let error = testCase.error
        let hasResponse: Set<Case> = [
            .unacceptableStatusCode, .responseInterceptorFailed, .parsingFailed, .responseConversionFailed,
        ]
        let hasBody: Set<Case> = [.unacceptableStatusCode, .responseInterceptorFailed, .parsingFailed]

        #expect(error.context == Self.context)
        #expect(error.stage.rawValue.isEmpty == false)
        #expect((error.response != nil) == hasResponse.contains(testCase))
        #expect(error.response === (hasResponse.contains(testCase) ? Self.response : nil))
        #expect(error.statusCode == (hasResponse.contains(testCase) ? 503 : nil))
        #expect(error.body == (hasBody.contains(testCase) ? Self.body : nil))

        switch testCase {
        case .buildFailed:
            #expect(error.stage == .build)
            guard
                case .invalidHeaderValue(name: "Authorization", field: "token") = try #require(
                    error.underlyingError as? BuildError)
            else {
                Issue.record("wrong BuildError")
                return
            }
        case .requestInterceptorFailed:
            #expect(error.stage == .requestInterceptor)
            #expect(error.underlyingError as? ProbeFailure == ProbeFailure(stage: "sign"))
        case .transportFailed:
            #expect(error.stage == .transport)
            #expect((error.underlyingError as? URLError)?.code == .notConnectedToInternet)
        case .unacceptableStatusCode:
            #expect(error.stage == .responseValidation)
            #expect(error.underlyingError == nil)
        case .responseInterceptorFailed:
            #expect(error.stage == .responseValidation)
            #expect(error.underlyingError as? ProbeFailure == ProbeFailure(stage: "check"))
        case .parsingFailed:
            #expect(error.stage == .parsing)
            #expect((error.underlyingError as? ParsingError)?.reason == .invalidJSON)
        case .responseConversionFailed:
            #expect(error.stage == .responseConversion)
            #expect(error.underlyingError as? ProbeFailure == ProbeFailure(stage: "convert"))
        case .notCached:
            #expect(error.stage == .transport)
            #expect(error.underlyingError == nil)
        case .cancelled:
            #expect(error.stage == .cancelled)
            #expect(error.underlyingError == nil)
        }
    }

    @Test(
        "withContext(_:) changes the context alone: the case, its error, body and response stay",
        arguments: Case.allCases)
    func withContextKeepsTheRest(of testCase: Case) {
        let error = testCase.error
        let other = RequestContext(
            requestType: "OtherRequest", method: .get, url: URL(string: "https://other.example"),
            declaredLocation: "other")
        let moved = error.withContext(other)
        #expect(moved.context == other)
        #expect(moved.stage == error.stage)
        #expect(moved.statusCode == error.statusCode)
        #expect(moved.body == error.body)
        #expect(moved.response === error.response)
        #expect(moved.underlyingError.map { "\($0)" } == error.underlyingError.map { "\($0)" })
        #expect(moved.withContext(Self.context).description == error.description)
    }

    @Test("a build error before the URL exists prints the declared base (redacted) and path")
    func buildErrorUsesDeclaredLocation() throws {
        let request = ProbeRequest(
            base: URL(string: "https://api.example.com/v1?token=SECRET")!, method: HTTPMethod(rawValue: "BAD METHOD"))

        let error: RequestError
        do {
            _ = try request.makeURLRequest()
            Issue.record("expected a build error")
            return
        } catch let caught {
            error = caught
        }

        #expect(error.context.url == nil)
        #expect(
            error.description
                == "BAD METHOD https://api.example.com/v1?token=*** + \"probe\" (ProbeRequest): could not build the request: method \"BAD METHOD\" is not a valid HTTP token"
        )
    }

    @Test("an invalid base URL's query value is not printed either")
    func invalidURLBuildErrorIsRedacted() throws {
        let request = ProbeRequest(base: URL(string: "file:///tmp/api?token=SECRET")!)

        let error: RequestError
        do {
            _ = try request.makeURLRequest()
            Issue.record("expected a build error")
            return
        } catch let caught {
            error = caught
        }

        guard case .buildFailed(.invalidURL, _) = error else {
            Issue.record("expected .buildFailed(.invalidURL), got \(error)")
            return
        }
        #expect(error.description.contains("could not build the request"))
        #expect(!error.description.contains("SECRET"), "\(error.description)")
    }

    @Test("a transport NSError in NSURLErrorDomain (not bridged to URLError on Linux) does not print its failing URL")
    func transportNSErrorIsRedacted() {
        let nsError = NSError(
            domain: NSURLErrorDomain,
            code: NSURLErrorNotConnectedToInternet,
            userInfo: [NSURLErrorFailingURLErrorKey: Self.secretURL]
        )
        let error = RequestError.transportFailed(nsError, context: Self.context)

        #expect(error.description.contains("transport failed"))
        #expect(!error.description.contains("SECRET"), "\(error.description)")
    }

    @Test("the same through perform: a URLProtocol failing with an NSURLErrorDomain NSError")
    func performedTransportNSErrorIsRedacted() async throws {
        let failingURL = URL(string: "https://example.test/api/probe?token=QUERYSECRET")!
        let failing = StubEndpoint(
            .failure(
                NSError(
                    domain: NSURLErrorDomain,
                    code: NSURLErrorNotConnectedToInternet,
                    userInfo: [NSURLErrorFailingURLErrorKey: failingURL]
                )
            )
        )
        var failingRequest = ProbeRequest(base: failing.base)
        failingRequest.token = "QUERYSECRET"

        let error = try #require(await failingRequest.performProbed().result?.errorValue)

        #expect(error.stage == .transport)
        #expect(!error.description.contains("QUERYSECRET"), "\(error.description)")
    }

    enum Performed: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case requestInterceptor, transport, status, responseInterceptor, parser, responseConversion, cancelled
        var testDescription: String { rawValue }
    }

    @Test(
        "descriptions of errors from perform never contain the request's header, query or body values, nor the response body",
        arguments: Performed.allCases)
    func performedErrorsLeakNothing(_ scenario: Performed) async throws {
        let stub: StubbedResponse =
            switch scenario {
            case .transport: .failure(.notConnectedToInternet)
            case .status: .status(503, body: "RESPONSESECRET", headers: ["Set-Cookie": "COOKIESECRET"])
            case .cancelled: .status(200, delay: 30)  // long after corelibs has stopped the cancelled load
            default: .status(200, body: "RESPONSESECRET", headers: ["Set-Cookie": "COOKIESECRET"])
            }
        let endpoint = StubEndpoint(stub)
        let failing: ProbeRequest.Hook? =
            switch scenario {
            case .requestInterceptor: .requestInterceptor
            case .responseInterceptor: .responseInterceptor
            case .parser: .parser
            case .responseConversion: .responseConversion
            default: nil
            }
        var request = ProbeRequest(base: endpoint.base, method: .post, failing: failing)
        request.authorization = "Bearer HEADERSECRET"
        request.token = "QUERYSECRET"
        request.password = "BODYSECRET"

        let probe = CompletionProbe<Result<String, RequestError>>()
        let handle = request.perform(session: StubURLProtocol.session) { probe.record($0) }
        if scenario == .cancelled { handle.cancel() }
        let error = try #require(await probe.first()?.errorValue)

        let text = error.description
        #expect(text.hasPrefix("POST https://\(endpoint.host)/api/probe?token=*** (ProbeRequest): "), "\(text)")
        for secret in ["HEADERSECRET", "QUERYSECRET", "BODYSECRET", "RESPONSESECRET", "COOKIESECRET"] {
            #expect(!text.contains(secret), "\(text) leaks \(secret)")
        }
        #expect(error.errorDescription == text)
    }
}
