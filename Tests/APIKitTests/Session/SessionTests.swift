import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("Session: interceptors at two levels, in the documented order")
struct SessionInterceptorTests {
    static let fullOrder = [
        "build", "intercept(urlRequest:)", "adapt A", "adapt B", "send", "inspect B", "inspect A",
        "intercept(urlResponse:)", "parse", "response(from:)",
    ]

    func session(log: EventLog, answer: StubResponse = .success(body: "hello"), a: RecordingInterceptor? = nil)
        -> (Session, RecordingTransport)
    {
        let transport = RecordingTransport(StubTransport { _ in answer }, log: log)
        let session = Session(
            transport: transport,
            interceptors: [a ?? RecordingInterceptor(name: "A", log: log), RecordingInterceptor(name: "B", log: log)]
        )
        return (session, transport)
    }

    @Test(
        "async: build → intercept(urlRequest:) → adapt A, B → send → inspect B, A → intercept(urlResponse:) → parse → response(from:)"
    )
    func asyncOrder() async throws {
        let log = EventLog()
        let (session, _) = session(log: log)

        let value = try await ProbeRequest(base: stubBase, log: log).response(using: session)

        #expect(value == "hello")
        #expect(log.names == Self.fullOrder)
    }

    @Test("the completion API runs the same stages in the same order")
    func completionOrder() async throws {
        let log = EventLog()
        let (session, _) = session(log: log)

        let (result, probe) = await session.performProbed(ProbeRequest(base: stubBase, log: log))

        #expect(try #require(result).get() == "hello")
        #expect(log.names == Self.fullOrder)
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
    }

    @Test("each adapt sees the previous one's changes, and the transport gets the last one's request")
    func adaptsChain() async throws {
        let log = EventLog()
        let seen = EventLog()
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let session = Session(
            transport: transport,
            interceptors: [
                RecordingInterceptor(name: "A", log: log, seen: seen),
                RecordingInterceptor(name: "B", log: log, seen: seen),
            ]
        )

        _ = try await ProbeRequest(base: stubBase, log: log).response(using: session)

        #expect(seen.names[0] == "adapt A: ProbeRequest Content-Type,X-Intercepted")
        #expect(seen.names[1] == "adapt B: ProbeRequest Content-Type,X-A,X-Intercepted")
        let sent = try #require(transport.sentRequests.first)
        #expect(sent.headerValue("X-A") == "A")
        #expect(sent.headerValue("X-B") == "B")
        #expect(sent.headerValue("X-Intercepted") == "yes")
    }

    @Test("a throwing adapt → .requestInterceptorFailed with its error; later hooks do not run, nothing is sent")
    func adaptFails() async throws {
        let log = EventLog()
        let failing = RecordingInterceptor(name: "A", log: log, adaptBehaviour: .fail(ProbeFailure(stage: "adapt A")))
        let (session, transport) = session(log: log, a: failing)

        let result = await ProbeRequest(base: stubBase, log: log).result(session: session)

        let error = try #require(result.errorValue)
        guard case .requestInterceptorFailed(let underlying, let context) = error else {
            Issue.record("expected .requestInterceptorFailed, got \(error)")
            return
        }
        #expect(underlying as? ProbeFailure == ProbeFailure(stage: "adapt A"))
        #expect(context.url?.path == "/v1/probe")
        #expect(log.names == ["build", "intercept(urlRequest:)", "adapt A"])
        #expect(transport.sentRequests.isEmpty)
    }

    @Test("a throwing inspect → .responseInterceptorFailed with the body; the request's response hooks do not run")
    func inspectFails() async throws {
        let log = EventLog()
        let failing = RecordingInterceptor(
            name: "A", log: log, inspectBehaviour: .fail(ProbeFailure(stage: "inspect A")))
        let (session, _) = session(log: log, answer: .success(body: "body"), a: failing)

        let result = await ProbeRequest(base: stubBase, log: log).result(session: session)

        let error = try #require(result.errorValue)
        guard case .responseInterceptorFailed(let underlying, let body, let response, _) = error else {
            Issue.record("expected .responseInterceptorFailed, got \(error)")
            return
        }
        #expect(underlying as? ProbeFailure == ProbeFailure(stage: "inspect A"))
        #expect(body == Data("body".utf8))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(error.stage == .responseValidation)
        #expect(Array(log.names.suffix(2)) == ["inspect B", "inspect A"])
    }

    @Test("an UnacceptableStatusCode from inspect → .unacceptableStatusCode")
    func inspectRejectsStatus() async throws {
        let log = EventLog()
        let failing = RecordingInterceptor(
            name: "A",
            log: log,
            inspectBehaviour: .fail(UnacceptableStatusCode(statusCode: 200))
        )
        let (session, _) = session(log: log, a: failing)

        let result = await ProbeRequest(base: stubBase, log: log).result(session: session)

        guard case .unacceptableStatusCode(200, let body, _, _) = try #require(result.errorValue) else {
            Issue.record("expected .unacceptableStatusCode(200), got \(String(describing: result.errorValue))")
            return
        }
        #expect(body == Data("hello".utf8))
    }

    @Test("inspect sees a 404 before the request's own status check rejects it")
    func inspectSeesErrorStatus() async throws {
        let log = EventLog()
        let seen = EventLog()
        let transport = StubTransport { _ in .success(status: 404, body: "missing") }
        let session = Session(
            transport: transport, interceptors: [RecordingInterceptor(name: "A", log: log, seen: seen)])

        let result = await ProbeRequest(base: stubBase, log: log).result(session: session)

        #expect(result.errorValue?.statusCode == 404)
        #expect(seen.names == ["adapt A: ProbeRequest Content-Type,X-Intercepted", "inspect A: 404 missing"])
        #expect(Array(log.names.suffix(2)) == ["inspect A", "intercept(urlResponse:)"])
    }

    @Test("a transport failure skips inspect → .transportFailed")
    func transportFailureSkipsInspect() async throws {
        let log = EventLog()
        let (session, _) = session(log: log, answer: .failure(URLError(.notConnectedToInternet)))

        let result = await ProbeRequest(base: stubBase, log: log).result(session: session)

        let error = try #require(result.errorValue)
        #expect(error.stage == .transport)
        #expect((error.underlyingError as? URLError)?.code == .notConnectedToInternet)
        #expect(!log.names.contains { $0.hasPrefix("inspect") })
    }

    @Test("interceptors run with a URLSession transport too, and the response is processed on its delegate queue")
    func urlSessionTransport() async throws {
        let log = EventLog()
        let endpoint = StubEndpoint(.status(200, body: "over URLSession", onRequest: { _ in log.append("send") }))
        let session = Session(
            transport: ForeignURLSessionTransport(urlSession: StubURLProtocol.session),
            interceptors: [RecordingInterceptor(name: "A", log: log), RecordingInterceptor(name: "B", log: log)]
        )

        let value = try await ProbeRequest(base: endpoint.base, log: log).response(using: session)

        #expect(value == "over URLSession")
        #expect(log.names == Self.fullOrder)
        #expect(endpoint.receivedRequests.first?.headerValue("X-B") == "B")
    }

    @Test("the completion runs on the session's completion queue, never synchronously inside perform")
    func completionQueue() async throws {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "apikit.tests.session-completion")
        queue.setSpecific(key: key, value: "completion")
        let log = EventLog()
        for interceptors in [[], [RecordingInterceptor(name: "A", log: log)]] as [[any Interceptor]] {
            let session = Session(
                transport: StubTransport { _ in .success(body: "x") }, completionQueue: queue,
                interceptors: interceptors)
            let probe = CompletionProbe<(Bool, String?)>()
            InsideCall.run {
                ProbeRequest(base: stubBase).perform(using: session) { _ in
                    probe.record((!InsideCall.isInside, DispatchQueue.getSpecific(key: key)))
                }
            }
            let (afterReturn, queueTag) = try #require(await probe.first())
            #expect(afterReturn)
            #expect(queueTag == "completion")
        }
    }
}

@Suite("Session: default headers")
struct SessionDefaultHeaderTests {
    @Test("added when the request does not declare them; a declared header wins, names compared case-insensitively")
    func addedUnlessDeclared() async throws {
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let session = Session(
            transport: transport,
            defaultHeaders: ["authorization": "Default", "User-Agent": "Tests/1.0", "x-intercepted": "default"]
        )
        var request = ProbeRequest(base: stubBase)
        request.authorization = "Bearer declared"

        _ = try await request.response(using: session)

        let sent = try #require(transport.sentRequests.first)
        #expect(sent.headerValue("Authorization") == "Bearer declared")
        #expect(sent.headerValue("User-Agent") == "Tests/1.0")
        // Default headers come before intercept(urlRequest:), which may override them.
        #expect(sent.headerValue("X-Intercepted") == "yes")
        #expect(sent.headerNames.filter { $0.lowercased() == "authorization" }.count == 1)
    }

    @Test("the parser's Accept counts as declared")
    func acceptFromParserWins() async throws {
        let transport = RecordingTransport(StubTransport { _ in .success(body: "{}") })
        let session = Session(transport: transport, defaultHeaders: ["ACCEPT": "text/plain"])

        _ = try await JSONObjectRequest(base: stubBase).response(using: session)

        #expect(transport.sentRequests.first?.headerValue("Accept") == "application/json")
    }

    @Test(
        "an invalid default header fails every request as .buildFailed naming Session.defaultHeaders; nothing is sent",
        arguments: [
            (["Bad Name": "v"], "invalidHeaderName"),
            (["X-Ok": "line\r\nInjected: 1"], "invalidHeaderValue"),
            (["X-Twice": "a", "x-twice": "b"], "duplicateHeader"),
        ]
    )
    func invalidDefaults(headers: [String: String], expected: String) async throws {
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let session = Session(transport: transport, defaultHeaders: headers)

        let result = await ProbeRequest(base: stubBase).result(session: session)

        guard case .buildFailed(let buildError, _) = try #require(result.errorValue) else {
            Issue.record("expected .buildFailed, got \(String(describing: result.errorValue))")
            return
        }
        #expect("\(buildError)".contains("Session.defaultHeaders"))
        #expect(buildError.fields == ["Session.defaultHeaders"])
        #expect(String(describing: buildError).contains("Injected") == false)
        switch buildError {
        case .invalidHeaderName: #expect(expected == "invalidHeaderName")
        case .invalidHeaderValue: #expect(expected == "invalidHeaderValue")
        case .duplicateHeader: #expect(expected == "duplicateHeader")
        default: Issue.record("unexpected \(buildError)")
        }
        #expect(transport.sentRequests.isEmpty)
    }

    @Test("a Session is a value: changing a copy leaves the original alone")
    func valueSemantics() {
        let original = Session(defaultHeaders: ["A": "1"])
        var copy = original
        copy.defaultHeaders["B"] = "2"
        copy.interceptors.append(RecordingInterceptor(name: "A", log: EventLog()))
        #expect(original.defaultHeaders == ["A": "1"])
        #expect(original.interceptors.isEmpty)
        #expect(Session().transport is URLSessionTransport)
    }
}

/// A request whose parser is a `JSONParser`, so that it sends `Accept: application/json`.
struct JSONObjectRequest: Request, RequestConfiguration {
    var base: URL
    var path = "json"
    var method: HTTPMethod = .get
    var configuration: Self { self }
    var parser: JSONParser<[String: String]> { JSONParser() }
}
