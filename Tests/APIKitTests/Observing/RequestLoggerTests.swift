import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

@Suite("RequestLogger: each request as curl, each response with status, time and size, nothing secret")
struct RequestLoggerTests {
    /// The URL of ``SecretRequest`` as logged by default.
    static let redactedURL = "https://api.example.test/v1/login?token=***&page=***"

    @Test("a request and its response are logged in order, paired by id, with status, size and time")
    func requestAndResponse() async throws {
        let lines = LogLines()
        let stub = StubTransport { _ in .success(status: 201, headers: ["Content-Type": "text/plain"], body: "created")
        }
        let session = Session(transport: stub, logger: lines.logger())

        let body = try await SecretRequest().response(using: session)

        #expect(body == "created")
        let texts = lines.all
        #expect(texts.count == 2)
        let request = try #require(LoggedRequestLine(texts[0]), "the request first: \(texts)")
        let response = try #require(LoggedResponseLine(texts[1]), "then the response: \(texts)")
        #expect(
            request.text
                == "→ #\(request.id) POST \(Self.redactedURL) (SecretRequest)\n"
                + "curl -X POST '\(Self.redactedURL)' -H 'Accept: text/plain' -H 'Authorization: ***' "
                + "-H 'Content-Type: text/plain' -H 'cookie: ***' -H 'Proxy-Authorization: ***' -H 'X-Api-Key: ***' "
                + "--data-binary '@<request body: \(LogSecrets.body.utf8.count) bytes, not logged>'")
        #expect(response.answers(request))
        #expect(response.status == 201)
        #expect(response.bodySize == 7)
        #expect(response.elapsed >= 0)
        #expect(response.error == nil)
        #expect(
            response.text
                == "← #\(request.id) 201 POST \(Self.redactedURL) (SecretRequest) "
                + String(format: "%.3f s, 7 bytes", response.elapsed))
    }

    @Test("each request has a number of its own, counting up; its response carries it")
    func numbered() async throws {
        let lines = LogLines()
        let session = Session(transport: StubTransport { _ in .success(body: "ok") }, logger: lines.logger())

        _ = try await SecretRequest().response(using: session)
        _ = try await SecretRequest().response(using: session)

        let requests = lines.requests
        #expect(requests.count == 2)
        #expect(requests[0].id < requests[1].id)
        #expect(lines.responses.map(\.id) == requests.map(\.id))
    }

    @Test(
        "elapsed is the time from hand-over to answer on the session's clock: 1.25 s, for a stub answering after 1.25 s"
    )
    func elapsedOnTheSessionsClock() async throws {
        let time = ManualTime()
        let lines = LogLines()
        let stub = StubTransport(time: time) { _ in .success(body: "late", delay: 1.25) }
        let session = Session(transport: stub, logger: lines.logger()).timed(by: time)
        let answer = Task { try await SecretRequest().response(using: session) }
        #expect(await time.nextWait() == 1.25)
        time.advance(by: 1)
        time.advance(by: 0.25)
        #expect(try await answer.value == "late")
        let request = try #require(lines.requests.first)
        let response = try #require(lines.responses.first)
        #expect(response.elapsed == 1.25)
        #expect(response.text == "← #\(request.id) 200 POST \(Self.redactedURL) (SecretRequest) 1.250 s, 4 bytes")
    }

    @Test("no secret — token, cookie, proxy credentials, key header, query value, body — in any line")
    func nothingSecretByDefault() async throws {
        let lines = LogLines()
        let stub = StubTransport { _ in
            .success(
                headers: ["Set-Cookie": "id=\(LogSecrets.cookie)", "X-Api-Key": LogSecrets.apiKey],
                body: LogSecrets.body)
        }
        let session = Session(transport: stub, logger: lines.logger())

        _ = try await SecretRequest().response(using: session)

        let texts = lines.all
        #expect(texts.count == 2)
        for secret in LogSecrets.all {
            let leaking = texts.filter { $0.contains(secret) }
            #expect(leaking.isEmpty, "\(secret) leaked in \(leaking)")
        }
        let curl = try #require(lines.requests.first).curlCommand
        for header in ["Authorization", "cookie", "Proxy-Authorization", "X-Api-Key"] {
            #expect(curl.contains("-H '\(header): ***'"), "\(header) in \(curl)")
        }
        #expect(curl.contains("--data-binary '@<request body: \(LogSecrets.body.utf8.count) bytes, not logged>'"))
    }

    @Test("opting in shows values, query and body — but never the always-redacted or user-marked headers")
    func optIn() async throws {
        let lines = LogLines()
        let privacy = LogPrivacy(
            sensitiveHeaders: ["x-api-key"],
            revealsHeaderValues: true,
            revealsQueryValues: true,
            revealsBodies: true
        )
        let stub = StubTransport { _ in .success(headers: ["Set-Cookie": LogSecrets.cookie, "X-Request-Id": "r1"]) }
        let session = Session(transport: stub, logger: lines.logger(privacy))

        _ = try await SecretRequest().response(using: session)

        let request = try #require(lines.requests.first)
        #expect(request.url == "https://api.example.test/v1/login?token=\(LogSecrets.query)&page=2")
        #expect(
            request.curlCommand
                == "curl -X POST '\(request.url)' -H 'Accept: text/plain' -H 'Authorization: ***' "
                + "-H 'Content-Type: text/plain' -H 'cookie: ***' -H 'Proxy-Authorization: ***' -H 'X-Api-Key: ***' "
                + "--data-raw \(LogSecrets.body)")
        for secret in [LogSecrets.token, LogSecrets.cookie, LogSecrets.proxy, LogSecrets.apiKey] {
            #expect(!lines.all.contains { $0.contains(secret) }, "\(secret) leaked")
        }
        // a response's headers are in no line, whatever is revealed
        #expect(!lines.all.contains { $0.contains("X-Request-Id") || $0.contains("r1") })
    }

    @Test("the logger sees the request as sent: after default headers, options and every interceptor")
    func seesFinalRequest() async throws {
        let lines = LogLines()
        let transport = RecordingTransport(StubTransport { _ in .success(body: "ok") })
        let privacy = LogPrivacy(revealsHeaderValues: true)
        let session = Session(
            transport: transport,
            defaultHeaders: ["User-Agent": "Tests/1"],
            interceptors: [RecordingInterceptor(name: "Signer", log: EventLog())],
            logger: lines.logger(privacy)
        )

        _ = try await SecretRequest().response(using: session)

        let sent = try #require(transport.sent.withLock { $0.first })
        let logged = try #require(lines.requests.first)
        #expect(logged.curlCommand.contains("-H 'X-Signer: Signer'"))
        #expect(logged.curlCommand.contains("-H 'User-Agent: Tests/1'"))
        #expect(logged.curlCommand == CurlCommand.make(for: sent, privacy: privacy))
    }

    @Test("a transport failure is logged as a response naming the error's code, not its message")
    func transportFailure() async throws {
        let lines = LogLines()
        let failure = URLError(
            .timedOut, userInfo: [NSURLErrorFailingURLErrorKey: URL(string: "https://x.test/?k=\(LogSecrets.query)")!])
        let session = Session(transport: StubTransport { _ in .failure(failure) }, logger: lines.logger())

        let result = await SecretRequest().result(session: session)

        #expect(result.errorValue?.stage == .transport)
        let request = try #require(lines.requests.first)
        let response = try #require(lines.responses.first)
        #expect(response.error == "URLError \(URLError.Code.timedOut.rawValue)")
        #expect(response.status == nil)
        #expect(response.bodySize == nil)
        #expect(
            response.text
                == "← #\(request.id) failed POST \(Self.redactedURL) (SecretRequest) "
                + String(format: "%.3f s: URLError %d", response.elapsed, URLError.Code.timedOut.rawValue))
        #expect(!lines.all.contains { $0.contains(LogSecrets.query) })
    }

    @Test("a transport failure that a link answers for (a fallback) is logged with the transport's error")
    func failureAnsweredByALink() async throws {
        let lines = LogLines()
        let fallback = ClosureInterceptor { request, _, next in
            do {
                return try await next(request)
            } catch {
                let head = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
                return CallResponse(urlResponse: head, data: Data("{}".utf8))
            }
        }
        let session = Session(
            transport: StubTransport { _ in .failure(URLError(.cannotConnectToHost)) }, interceptors: [fallback],
            logger: lines.logger())

        let result = await SecretRequest().result(session: session)

        #expect(result.errorValue == nil)
        #expect(lines.responses.count == 1)
        let response = try #require(lines.responses.first)
        #expect(response.error == "URLError \(URLError.Code.cannotConnectToHost.rawValue)", "\(lines.all)")
    }

    @Test("an error status is logged like any response: the logger runs before the status check")
    func errorStatus() async throws {
        let lines = LogLines()
        let session = Session(
            transport: StubTransport { _ in .success(status: 503, body: "down") }, logger: lines.logger())

        let result = await SecretRequest().result(session: session)

        #expect(result.errorValue?.stage == .responseValidation)
        #expect(lines.responses.map(\.status) == [503])
        #expect(lines.responses.map(\.bodySize) == [4])
    }

    @Test("a cancelled transfer logs its URLError(.cancelled) as the response")
    func cancellation() async throws {
        let lines = LogLines()
        let sent = CompletionProbe<Bool>()
        let session = Session(
            transport: StubTransport { _ in
                sent.record(true)
                return .success(body: "late", delay: 60)
            }, logger: lines.logger())
        let probe = CompletionProbe<Result<String, RequestError>>()

        let handle = SecretRequest().perform(using: session) { probe.record($0) }
        // the request is logged before the transport's send
        #expect(await sent.first() != nil, "the request never reached the transport")
        #expect(lines.requests.count == 1)
        handle.cancel()

        let result = try #require(await probe.first())
        #expect(result.errorValue?.stage == .cancelled)
        guard let response = await lines.firstResponse() else {
            throw ProbeFailure(stage: "no response was logged within 120 s")
        }
        #expect(response.error == "URLError \(URLError.Code.cancelled.rawValue)")
        #expect(response.text.contains(" failed POST \(Self.redactedURL) (SecretRequest) "))
    }

    @Test("a request that fails to build is not logged; a session without a logger logs nothing")
    func notLogged() async throws {
        let lines = LogLines()
        let session = Session(
            transport: StubTransport { _ in .success() },
            defaultHeaders: ["Bad Name": "x"],
            logger: lines.logger()
        )
        let result = await SecretRequest().result(session: session)
        #expect(result.errorValue?.stage == .build)
        #expect(lines.all.isEmpty)
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
}
