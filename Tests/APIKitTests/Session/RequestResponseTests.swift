import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("response(): async/await over the same pipeline")
struct RequestResponseTests {
    @Test("returns the typed response")
    func success() async throws {
        let session = Session(transport: StubTransport { _ in .success(body: "hello") })
        let value: String = try await ProbeRequest(base: stubBase).response(using: session)
        #expect(value == "hello")
    }

    @Test(".response(using: session) is the same call")
    func sessionResponse() async throws {
        let session = Session(transport: StubTransport { _ in .success(body: "hi") })
        #expect(try await ProbeRequest(base: stubBase).response(using: session) == "hi")
    }

    @Test("the thrown error is a RequestError without a cast")
    func typedThrows() async {
        let session = Session(transport: StubTransport { _ in .success(status: 500) })
        do {
            _ = try await ProbeRequest(base: stubBase).response(using: session)
            Issue.record("expected a failure")
        } catch {
            let typed: RequestError = error
            #expect(typed.statusCode == 500)
        }
    }

    enum Failing: String, CaseIterable, Sendable {
        case build, requestInterceptor, transport, status, responseInterceptor, parser, responseConversion
    }

    @Test("every failure stage throws its RequestError", arguments: Failing.allCases)
    func failures(stage: Failing) async throws {
        var answer = StubResponse.success(body: "x")
        var request = ProbeRequest(base: stubBase)
        let expected: RequestError.Stage
        switch stage {
        case .build:
            request = ProbeRequest(base: stubBase, method: HTTPMethod(rawValue: "BAD METHOD"))
            expected = .build
        case .requestInterceptor:
            request = ProbeRequest(base: stubBase, failing: .requestInterceptor)
            expected = .requestInterceptor
        case .transport:
            answer = .failure(URLError(.timedOut))
            expected = .transport
        case .status:
            answer = .success(status: 503, body: "down")
            expected = .responseValidation
        case .responseInterceptor:
            request = ProbeRequest(base: stubBase, failing: .responseInterceptor)
            expected = .responseValidation
        case .parser:
            request = ProbeRequest(base: stubBase, failing: .parser)
            expected = .parsing
        case .responseConversion:
            request = ProbeRequest(base: stubBase, failing: .responseConversion)
            expected = .responseConversion
        }
        let session = Session(transport: StubTransport { [answer] _ in answer })

        let result = await request.result(session: session)

        let error = try #require(result.errorValue)
        #expect(error.stage == expected)
        #expect(error.context.requestType == "ProbeRequest")
        if stage == .status { #expect(error.body == Data("down".utf8)) }
    }

    @Test("a Task cancelled before the call: .cancelled, and the transport is never called")
    func cancelledBeforeSend() async throws {
        for interceptors in [[], [RecordingInterceptor(name: "A", log: EventLog())]] as [[any Interceptor]] {
            let transport = RecordingTransport(StubTransport { _ in .success(body: "x") })
            let session = Session(transport: transport, interceptors: interceptors)
            let log = EventLog()
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await ProbeRequest(base: stubBase, log: log).result(session: session)
            }

            let error = try #require(await task.value.errorValue)

            #expect(error.stage == .cancelled)
            #expect(transport.sentRequests.isEmpty)
            #expect(!log.names.contains("build"), "a cancelled request is not even built")
        }
    }

    @Test("cancelling the Task during a delayed answer: .cancelled, and the transfer is cancelled")
    func cancelledDuringTransfer() async throws {
        for interceptors in [[], [RecordingInterceptor(name: "A", log: EventLog())]] as [[any Interceptor]] {
            let started = CompletionProbe<Bool>()
            let transport = RecordingTransport(
                StubTransport { _ in
                    started.record(true)
                    return .success(body: "late", delay: 60)
                }
            )
            let session = Session(transport: transport, interceptors: interceptors)
            let log = EventLog()
            let task = Task {
                await ProbeRequest(base: stubBase, log: log).result(session: session)
            }
            #expect(await started.first() == true, "the stub never received the request")

            task.cancel()
            let error = try #require(await task.value.errorValue)

            guard case .cancelled(let context) = error else {
                Issue.record("expected .cancelled, got \(error)")
                continue
            }
            #expect(context.url?.path == "/v1/probe")
            let transportResult = try #require(
                await transport.results.first(), "the transfer was not stopped")
            #expect((transportResult.errorValue as? URLError)?.code == .cancelled)
            #expect(!log.names.contains("parse"))
        }
    }

    /// A transport that answers both forms of `send` and records which one each request took.
    struct RoadTransport: Transport {
        let roads = Locked<[String]>([])

        func send(
            _ request: URLRequest,
            progress: (@Sendable (TransferProgress) -> Void)?,
            completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
        ) -> any TransportTask {
            roads.withLock { $0.append("completion") }
            return StubTransport { _ in .success(body: "by completion") }.send(
                request, progress: progress, completion: completion)
        }

        func send(_ request: URLRequest) async throws -> TransportResponse {
            roads.withLock { $0.append("async") }
            let http = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
            return TransportResponse(data: Data("awaited".utf8), urlResponse: http)
        }
    }

    /// A request type with a retry policy of its own (`.never`: still sent once, but the
    /// request chose it).
    struct OwnPolicyRequest: Request, RequestConfiguration {
        var base = stubBase
        var path = "own-policy"
        var method: HTTPMethod = .get
        var parser: StringParser { StringParser() }
        var retryPolicy: RetryPolicy? { .never }
    }

    struct Bearer: Authenticator {
        func apply(_ credential: String, to urlRequest: inout URLRequest) throws {
            urlRequest.setValue("Bearer \(credential)", forHTTPHeaderField: "Authorization")
        }

        func refresh() async throws -> String { "fresh" }
    }

    enum Road: String, CaseIterable, Sendable {
        case plain, interceptor, progress, sessionRetries, requestPolicy, credentialStore, resourceTimeout
        case completionQueue
    }

    @Test(
        "a call awaits the transport's async send, whatever its links; one that reports progress or has a resource timeout takes send(_:progress:completion:)",
        arguments: Road.allCases)
    func roads(road: Road) async throws {
        let transport = RoadTransport()
        var session = Session(transport: transport)
        var options: RequestOptions?
        var progress: (@Sendable (TransferProgress) -> Void)?
        switch road {
        case .plain, .requestPolicy: break
        case .interceptor: session.interceptors = [RecordingInterceptor(name: "A", log: EventLog())]
        case .progress: progress = { _ in }
        case .sessionRetries: session.retryPolicy = RetryPolicy()
        case .credentialStore: session.credentialStore = CredentialStore(Bearer(), credential: "t")
        case .resourceTimeout: options = RequestOptions(resourceTimeout: 30)
        case .completionQueue: session.completionQueue = DispatchQueue(label: "completion")
        }

        let value =
            road == .requestPolicy
            ? try await OwnPolicyRequest().response(using: session)
            : try await ProbeRequest(base: stubBase).response(using: session, options: options, progress: progress)

        // every link of the chain runs in the calling task; only a transfer the pipeline must
        // watch (progress, a deadline) goes through the completion handler
        let awaited = road != .progress && road != .resourceTimeout
        #expect(value == (awaited ? "awaited" : "by completion"))
        #expect(transport.roads.withLock { $0 } == [awaited ? "async" : "completion"])
    }

    @Test("cancelling the Task while an interceptor's adapt waits cancels that hook; nothing is sent")
    func cancelledDuringAdapt() async throws {
        let waiting = CompletionProbe<String>()
        let cancelled = CompletionProbe<String>()
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let interceptor = RecordingInterceptor(
            name: "A",
            log: EventLog(),
            adaptBehaviour: .waitForCancellation,
            waiting: waiting,
            cancelled: cancelled
        )
        let session = Session(transport: transport, interceptors: [interceptor])
        let task = Task { await ProbeRequest(base: stubBase).result(session: session) }
        #expect(await waiting.first() == "adapt A")

        task.cancel()

        #expect(try #require(await task.value.errorValue).stage == .cancelled)
        #expect(await cancelled.first() == "adapt A", "the interceptor's Task was not cancelled")
        #expect(transport.sentRequests.isEmpty)
    }

    @Test("cancelling the Task while inspect waits: .cancelled; the response is not parsed")
    func cancelledDuringInspect() async throws {
        let waiting = CompletionProbe<String>()
        let cancelled = CompletionProbe<String>()
        let interceptor = RecordingInterceptor(
            name: "A",
            log: EventLog(),
            inspectBehaviour: .waitForCancellation,
            waiting: waiting,
            cancelled: cancelled
        )
        let session = Session(transport: StubTransport { _ in .success(body: "x") }, interceptors: [interceptor])
        let requestLog = EventLog()
        let task = Task {
            await ProbeRequest(base: stubBase, log: requestLog).result(session: session)
        }
        #expect(await waiting.first() == "inspect A")

        task.cancel()

        #expect(try #require(await task.value.errorValue).stage == .cancelled)
        #expect(await cancelled.first() == "inspect A", "the interceptor's Task was not cancelled")
        #expect(!requestLog.names.contains("parse"))
    }
}
