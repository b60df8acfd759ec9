import APIKit
import Testing

/// The fault server's `/never`, with `timeoutInterval = 1` set by `intercept(urlRequest:)`.
struct NeverAnsweredRequestByIntercept: Request, RequestConfiguration {
    var base = FaultServer.url ?? URL(string: "http://127.0.0.1:9")!
    var path = "never"
    var method: HTTPMethod = .get
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }

    func intercept(urlRequest: URLRequest) throws -> URLRequest {
        var request = urlRequest
        request.timeoutInterval = 1
        return request
    }
}

/// httpbin's `/delay/N`, optionally with a shorter timeout set by `intercept(urlRequest:)`.
struct DelayRequest: Request, RequestConfiguration {
    var seconds = 3
    var timeout: TimeInterval? = nil

    var base = HTTPBin.baseURL
    var path: String { "delay/\(seconds)" }
    var method: HTTPMethod = .get
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }

    func intercept(urlRequest: URLRequest) throws -> URLRequest {
        var request = urlRequest
        if let timeout {
            request.timeoutInterval = timeout
        }
        return request
    }
}

/// A header value that would inject a second header line.
struct InjectingHeaderRequest: Request, RequestConfiguration {
    @Header("X-Custom-Token") var token: String? = "good\r\nX-Injected: evil"

    var base: URL
    var path = "anything"
    var method: HTTPMethod = .post
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
}

/// A request interceptor that refuses to let the request go.
struct RefusingInterceptorRequest: Request, RequestConfiguration {
    struct Refused: Error {}

    var base: URL
    var path = "anything"
    var method: HTTPMethod = .get
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }

    func intercept(urlRequest: URLRequest) throws -> URLRequest {
        throw Refused()
    }
}

@Suite(
    "Transport and build failures",
    .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason),
    .enabled(if: FaultServer.url != nil, FaultServer.skipReason)
)
struct FailureTests {
    @Test("A refused connection is transportFailed with a URLError")
    func refusedConnection() async throws {
        let base = try HTTPBin.refusedURL()
        let error = try #require(
            try await perform(GetRequest(path: "anything", parser: RawDataParser(), base: base)).failure)

        guard case .transportFailed(let underlying, let context) = error else {
            Issue.record("expected transportFailed, got \(error)")
            return
        }
        let urlError = try #require(underlying as? URLError, "underlying error: \(underlying)")
        #expect(urlError.code == .cannotConnectToHost)
        #expect(error.stage == .transport)
        #expect(error.response == nil)
        #expect(error.body == nil)
        #expect(context.url?.port == base.port)
    }

    @Test("intercept(urlRequest:) setting timeoutInterval = 1 times out a server that never answers")
    func timeout() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        let error = try #require(try await perform(NeverAnsweredRequestByIntercept()).failure)
        let elapsed = clock.now - started

        guard case .transportFailed(let underlying, _) = error else {
            Issue.record("expected transportFailed(URLError.timedOut), got \(error)")
            return
        }
        #expect((underlying as? URLError)?.code == .timedOut, "underlying error: \(underlying)")
        #expect(error.stage == .transport)
        // The server never answers (120 s); the bound leaves room for a loaded machine.
        #expect(elapsed < .seconds(100), "took \(elapsed)")
    }

    @Test("A header value with CR LF is buildFailed, and nothing is sent")
    func buildErrorSendsNothing() async throws {
        // Nothing listens at this address: an attempt to send would be a transport error.
        let inFlight = start(InjectingHeaderRequest(base: try HTTPBin.refusedURL()))
        let error = try #require(try await inFlight.result().failure)

        guard case .buildFailed(let buildError, let context) = error else {
            Issue.record("expected buildFailed, got \(error)")
            return
        }
        guard case .invalidHeaderValue(let name, let field) = buildError else {
            Issue.record("expected invalidHeaderValue, got \(buildError)")
            return
        }
        #expect(name == "X-Custom-Token")
        #expect(field == "token")
        #expect(error.stage == .build)
        #expect(context.url == nil)
        #expect(!error.description.contains("evil"), "header values must not be logged")
        #expect(inFlight.handle.isFinished)

        inFlight.handle.cancel()
        #expect(await inFlight.released(), "the completion is still held")
        #expect(inFlight.completionCount == 1)
    }

    @Test("A throwing intercept(urlRequest:) is requestInterceptorFailed, and nothing is sent")
    func requestInterceptorSendsNothing() async throws {
        let error = try #require(try await perform(RefusingInterceptorRequest(base: try HTTPBin.refusedURL())).failure)

        guard case .requestInterceptorFailed(let underlying, _) = error else {
            Issue.record("expected requestInterceptorFailed, got \(error)")
            return
        }
        #expect(underlying is RefusingInterceptorRequest.Refused)
        #expect(error.stage == .requestInterceptor)
    }
}
