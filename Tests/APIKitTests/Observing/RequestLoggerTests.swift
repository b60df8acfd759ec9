import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

@Suite("RequestLogger: each request as curl, each response with status, time and size, nothing secret")
struct RequestLoggerTests {
    @Test("a request and its response are logged in order, paired by id, with status, size and time")
    func requestAndResponse() async throws {
        let recorder = LogRecorder()
        let stub = StubTransport { _ in .success(status: 201, headers: ["Content-Type": "text/plain"], body: "created")
        }
        let session = Session(transport: stub, logger: recorder.logger())

        let body = try await SecretRequest().response(using: session)

        #expect(body == "created")
        let events = recorder.all
        #expect(events.count == 2)
        let request = try #require(recorder.requests.first)
        let response = try #require(recorder.responses.first)
        guard case .request = events.first, case .response = events.last else {
            Issue.record("expected the request, then the response: \(events)")
            return
        }
        #expect(request.requestType == "SecretRequest")
        #expect(request.method == "POST")
        #expect(request.url == "https://api.example.test/v1/login?token=***&page=***")
        #expect(request.bodySize == LogSecrets.body.utf8.count)
        #expect(request.headers["Accept"] == "text/plain")
        #expect(response.request == request)
        #expect(response.statusCode == 201)
        #expect(response.bodySize == 7)
        #expect(response.elapsed >= 0)
        #expect(response.error == nil)
        #expect(response.headers["Content-Type"] == "text/plain")
        #expect(response.description.hasPrefix("← #\(request.id) 201 POST https://api.example.test/v1/login?"))
        #expect(response.description.hasSuffix(" s, 7 bytes"))
        #expect(
            request.description
                == "→ #\(request.id) POST https://api.example.test/v1/login?token=***&page=*** (SecretRequest)")
    }

    @Test(
        "elapsed is the time from hand-over to answer on the session's clock: 1.25 s, for a stub answering after 1.25 s"
    )
    func elapsedOnTheSessionsClock() async throws {
        let time = ManualTime()
        let recorder = LogRecorder()
        let stub = StubTransport(time: time) { _ in .success(body: "late", delay: 1.25) }
        let session = Session(transport: stub, logger: recorder.logger()).timed(by: time)
        let answer = Task { try await SecretRequest().response(using: session) }
        #expect(await time.nextWait() == 1.25)
        time.advance(by: 1)
        time.advance(by: 0.25)
        #expect(try await answer.value == "late")
        let response = try #require(recorder.responses.first)
        #expect(response.elapsed == 1.25)
        #expect(response.description.contains(" 1.250 s,"), "\(response.description)")
    }

    @Test("no secret — token, cookie, proxy credentials, key header, query value, body — in any line")
    func nothingSecretByDefault() async throws {
        let recorder = LogRecorder()
        let stub = StubTransport { _ in
            .success(
                headers: ["Set-Cookie": "id=\(LogSecrets.cookie)", "X-Api-Key": LogSecrets.apiKey],
                body: LogSecrets.body)
        }
        let session = Session(transport: stub, logger: recorder.logger())

        _ = try await SecretRequest().response(using: session)

        let lines = recorder.lines
        #expect(lines.count > 10)
        for secret in LogSecrets.all {
            let leaking = lines.filter { $0.contains(secret) }
            #expect(leaking.isEmpty, "\(secret) leaked in \(leaking)")
        }
        let response = try #require(recorder.responses.first)
        #expect(response.headers["Set-Cookie"] == "***")
    }

    @Test("opting in shows values, query and body — but never the always-redacted or user-marked headers")
    func optIn() async throws {
        let recorder = LogRecorder()
        let privacy = LogPrivacy(
            sensitiveHeaders: ["x-api-key"],
            revealsHeaderValues: true,
            revealsQueryValues: true,
            revealsBodies: true
        )
        let stub = StubTransport { _ in .success(headers: ["Set-Cookie": LogSecrets.cookie, "X-Request-Id": "r1"]) }
        let session = Session(transport: stub, logger: recorder.logger(privacy))

        _ = try await SecretRequest().response(using: session)

        let request = try #require(recorder.requests.first)
        #expect(request.url.contains("token=\(LogSecrets.query)"))
        #expect(request.curlCommand.hasSuffix("--data-binary \(LogSecrets.body)"))
        #expect(request.headers["Authorization"] == "***")
        #expect(request.headers["cookie"] == "***")
        #expect(request.headers["Proxy-Authorization"] == "***")
        #expect(request.headers["X-Api-Key"] == "***")
        let response = try #require(recorder.responses.first)
        #expect(response.headers["Set-Cookie"] == "***")
        #expect(response.headers["X-Request-Id"] == "r1")
        for secret in [LogSecrets.token, LogSecrets.cookie, LogSecrets.proxy, LogSecrets.apiKey] {
            #expect(!recorder.lines.contains { $0.contains(secret) }, "\(secret) leaked")
        }
    }

    @Test("the logger sees the request as sent: after default headers, options and every interceptor")
    func seesFinalRequest() async throws {
        let recorder = LogRecorder()
        let transport = RecordingTransport(StubTransport { _ in .success(body: "ok") })
        let session = Session(
            transport: transport,
            defaultHeaders: ["User-Agent": "Tests/1"],
            interceptors: [RecordingInterceptor(name: "Signer", log: EventLog())],
            logger: recorder.logger(LogPrivacy(revealsHeaderValues: true))
        )

        _ = try await SecretRequest().response(using: session)

        let sent = try #require(transport.sent.withLock { $0.first })
        let logged = try #require(recorder.requests.first)
        #expect(logged.headers["X-Signer"] == "Signer")
        #expect(logged.headers["User-Agent"] == "Tests/1")
        #expect(Set(logged.headers.keys) == Set((sent.allHTTPHeaderFields ?? [:]).keys))
    }

    @Test("a transport failure is logged as a response naming the error's code, not its message")
    func transportFailure() async throws {
        let recorder = LogRecorder()
        let failure = URLError(
            .timedOut, userInfo: [NSURLErrorFailingURLErrorKey: URL(string: "https://x.test/?k=\(LogSecrets.query)")!])
        let session = Session(transport: StubTransport { _ in .failure(failure) }, logger: recorder.logger())

        let result = await SecretRequest().result(session: session)

        #expect(result.errorValue?.stage == .transport)
        let response = try #require(recorder.responses.first)
        #expect(response.error == "URLError \(URLError.Code.timedOut.rawValue)")
        #expect(response.statusCode == nil)
        #expect(response.bodySize == nil)
        #expect(response.description.contains("failed POST"))
        #expect(!recorder.lines.contains { $0.contains(LogSecrets.query) })
    }

    @Test("an error status is logged like any response: the logger runs before the status check")
    func errorStatus() async throws {
        let recorder = LogRecorder()
        let session = Session(
            transport: StubTransport { _ in .success(status: 503, body: "down") }, logger: recorder.logger())

        let result = await SecretRequest().result(session: session)

        #expect(result.errorValue?.stage == .responseValidation)
        #expect(recorder.responses.map(\.statusCode) == [503])
    }

    @Test("a cancelled transfer logs its URLError(.cancelled) as the response")
    func cancellation() async throws {
        let recorder = LogRecorder()
        let sent = CompletionProbe<Bool>()
        let session = Session(
            transport: StubTransport { _ in
                sent.record(true)
                return .success(body: "late", delay: 60)
            }, logger: recorder.logger())
        let probe = CompletionProbe<Result<String, RequestError>>()

        let handle = SecretRequest().perform(using: session) { probe.record($0) }
        // the request event is logged before the transport's send
        #expect(await sent.first() != nil, "the request never reached the transport")
        #expect(recorder.requests.count == 1)
        handle.cancel()

        let result = try #require(await probe.first())
        #expect(result.errorValue?.stage == .cancelled)
        let response = try await waitForResponse(recorder)
        #expect(response.error == "URLError \(URLError.Code.cancelled.rawValue)")
    }

    @Test("a request that fails to build is not logged; a session without a logger logs nothing")
    func notLogged() async throws {
        let recorder = LogRecorder()
        let session = Session(
            transport: StubTransport { _ in .success() },
            defaultHeaders: ["Bad Name": "x"],
            logger: recorder.logger()
        )
        let result = await SecretRequest().result(session: session)
        #expect(result.errorValue?.stage == .build)
        #expect(recorder.all.isEmpty)
        #expect(Session().logger == nil)
        #expect(Session(logger: nil).logger == nil)
    }

    @Test("error names carry the type and code only")
    func errorNames() {
        struct Leaky: Error, CustomStringConvertible {
            var description: String { LogSecrets.token }
        }
        #expect(LoggedResponse.name(of: URLError(.cancelled)) == "URLError -999")
        #expect(!LoggedResponse.name(of: Leaky()).contains(LogSecrets.token))
    }

    /// The first logged response, waiting until the transport has delivered it.
    private func waitForResponse(_ recorder: LogRecorder) async throws -> LoggedResponse {
        guard let response = await recorder.loggedResponses.first() else {
            throw ProbeFailure(stage: "no response was logged within 120 s")
        }
        return response
    }
}
