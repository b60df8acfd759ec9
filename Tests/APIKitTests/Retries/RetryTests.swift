import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

@Suite("Session retry policy: attempts, backoff, Retry-After, cancellation")
struct RetryTests {
    @Test("503, 503, 200: three attempts, backoff waits in between, both APIs succeed")
    func retriesUntilSuccess() async throws {
        for api in ["completion", "async"] {
            let transport = ScriptedTransport([.success(status: 503), .success(status: 503), .success(body: "ok")])
            let waits = WaitRecorder()
            let session = Session(transport: transport, retryPolicy: waits.policy()).timed(by: waits)
            let builds = Locked(0)
            let request = TextRequest(builds: builds)
            let result: Result<String, RequestError>?
            if api == "completion" {
                result = await session.performProbed(request).result
            } else {
                result = await request.result(session: session)
            }
            #expect(try result?.get() == "ok", "\(api)")
            #expect(transport.count == 3, "\(api)")
            #expect(waits.recorded == [0.25, 0.5], "\(api)")
            #expect(builds.withLock { $0 } == 1, "built once; each attempt sends it again (\(api))")
        }
    }

    @Test("the public way to retry without sleeping: zero backoff and maxRetryAfter 0, even under Retry-After: 60")
    func zeroDelayPolicyDoesNotSleep() async throws {
        let transport = ScriptedTransport([
            .success(status: 503, headers: ["Retry-After": "60"]),
            .success(status: 429, headers: ["Retry-After": "60"]),
            .success(body: "ok"),
        ])
        let policy = RetryPolicy(backoff: .init(baseDelay: 0), maxRetryAfter: 0)
        let session = Session(transport: transport, retryPolicy: policy)
        let started = Date()
        #expect(try await TextRequest().result(session: session).get() == "ok")
        #expect(transport.count == 3)
        // Honouring both Retry-Afters would take 120 s. The bound is loose on purpose: a busy
        // test run (two cores, every suite in parallel) took 26 s here. The exact delays (0) are
        // pinned without a clock in RetryPolicyTests.
        #expect(Date().timeIntervalSince(started) < 100, "the Retry-After: 60 answers were not waited")
    }

    @Test("still failing after maxAttempts: the last error, with the attempts in context and description")
    func exhausted() async throws {
        let transport = ScriptedTransport([.success(status: 502), .success(status: 503, body: "busy")])
        let waits = WaitRecorder()
        let session = Session(transport: transport, retryPolicy: waits.policy()).timed(by: waits)
        let error = try #require(await session.performProbed(TextRequest()).result?.errorValue)
        guard case .unacceptableStatusCode(503, let body, _, let context) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(body == Data("busy".utf8))
        #expect(context.attempts == 3)
        #expect(error.context.attempts == 3)
        #expect(transport.count == 3)
        #expect(error.description.hasSuffix("server answered with status code 503 (4 body bytes) after 3 attempts"))
        #expect(error.localizedDescription == error.description)
    }

    @Test("a non-idempotent method is sent once; the error says nothing about attempts")
    func postIsNotRetried() async throws {
        let transport = ScriptedTransport([.success(status: 503)])
        let session = Session(transport: transport, retryPolicy: WaitRecorder().policy()).timed(by: WaitRecorder())
        let error = try #require(await session.performProbed(TextRequest(method: .post)).result?.errorValue)
        #expect(error.statusCode == 503)
        #expect(error.context.attempts == 1)
        #expect(!error.description.contains("attempts"))
        #expect(transport.count == 1)
    }

    @Test("a transient transport failure is retried; a permanent one is not")
    func transportFailures() async throws {
        let flaky = ScriptedTransport([.failure(URLError(.networkConnectionLost)), .success(body: "ok")])
        let session = Session(transport: flaky, retryPolicy: WaitRecorder().policy()).timed(by: WaitRecorder())
        #expect(try await session.performProbed(TextRequest()).result?.get() == "ok")
        #expect(flaky.count == 2)

        let broken = ScriptedTransport([.failure(URLError(.badURL)), .success(body: "ok")])
        let error = try #require(
            await Session(transport: broken, retryPolicy: WaitRecorder().policy()).timed(by: WaitRecorder())
                .performProbed(TextRequest()).result?
                .errorValue)
        guard case .transportFailed(let underlying as URLError, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(underlying.code == .badURL)
        #expect(broken.count == 1)

        let down = ScriptedTransport([.failure(URLError(.timedOut))])
        let last = try #require(
            await Session(transport: down, retryPolicy: WaitRecorder().policy()).timed(by: WaitRecorder())
                .performProbed(TextRequest()).result?
                .errorValue)
        #expect(last.stage == .transport)
        #expect(last.context.attempts == 3)
        #expect(last.description.hasSuffix("after 3 attempts"))
    }

    @Test("Retry-After from the response is the wait, capped by maxRetryAfter")
    func retryAfter() async throws {
        let transport = ScriptedTransport([
            .success(status: 429, headers: ["Retry-After": "2"]),
            .success(status: 503, headers: ["Retry-After": "86400"]),
            .success(body: "ok"),
        ])
        let waits = WaitRecorder()
        var policy = waits.policy()
        policy.maxRetryAfter = 30
        let session = Session(transport: transport, retryPolicy: policy).timed(by: waits)
        #expect(try await session.performProbed(TextRequest()).result?.get() == "ok")
        #expect(waits.recorded == [2, 30])
    }

    @Test("the request type's policy wins over the session's")
    func requestPolicyWins() async throws {
        let transport = ScriptedTransport([.success(status: 503), .success(body: "ok")])
        let session = Session(transport: transport, retryPolicy: WaitRecorder().policy()).timed(by: WaitRecorder())
        let error = try #require(
            await session.performProbed(TextRequest(retryPolicy: RetryPolicy.never)).result?.errorValue)
        #expect(error.statusCode == 503)
        #expect(transport.count == 1)

        let other = ScriptedTransport([.success(status: 503), .success(body: "ok")])
        let plain = Session(transport: other).timed(by: WaitRecorder())
        #expect(try await plain.performProbed(TextRequest(retryPolicy: WaitRecorder().policy())).result?.get() == "ok")
        #expect(other.count == 2)
    }

    @Test("a policy that cannot be followed fails the request with a BuildError; nothing is sent")
    func invalidPolicy() async throws {
        let transport = ScriptedTransport([.success(body: "ok")])
        let session = Session(transport: transport, retryPolicy: RetryPolicy(maxAttempts: 0))
        let error = try #require(await session.performProbed(TextRequest()).result?.errorValue)
        guard case .buildFailed(.invalidRetryPolicy(let reason), _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(reason.contains("maxAttempts 0"))
        #expect(transport.count == 0)
    }

    @Test("cancelling the handle during the backoff wait: cancelled once, no further attempt")
    func cancelDuringBackoff() async throws {
        let transport = ScriptedTransport([.success(status: 503), .success(body: "ok")])
        let waits = WaitRecorder(blockUntilCancelled: true)
        let session = Session(transport: transport, retryPolicy: waits.policy()).timed(by: waits)
        let probe = CompletionProbe<Result<String, RequestError>>()
        let handle = TextRequest().perform(using: session, completion: probe.handler)
        #expect(await waits.waiting.first() == 1, "never reached the backoff wait")
        handle.cancel()
        let result = try #require(await probe.first())
        #expect(result.errorValue?.stage == .cancelled)
        // the attempts' task holds the completion until it ends: a further attempt comes first
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
        #expect(transport.count == 1)
    }

    @Test("cancelling the awaiting Task during the backoff wait throws .cancelled")
    func cancelTaskDuringBackoff() async throws {
        let transport = ScriptedTransport([.failure(URLError(.timedOut)), .success(body: "ok")])
        let waits = WaitRecorder(blockUntilCancelled: true)
        let session = Session(transport: transport, retryPolicy: waits.policy()).timed(by: waits)
        let task = Task { await TextRequest().result(session: session) }
        #expect(await waits.waiting.first() == 1, "never reached the backoff wait")
        task.cancel()
        let result = await task.value
        #expect(result.errorValue?.stage == .cancelled)
        #expect(transport.count == 1)
    }

    @Test("cancelling during a transfer of a retried request stops that transfer")
    func cancelDuringTransfer() async throws {
        let transport = ScriptedTransport([.success(status: 503), .success(body: "slow", delay: 60)])
        let recording = RecordingTransport(transport)
        let time = ManualTime()
        let session = Session(transport: recording, retryPolicy: RetryPolicy(backoff: .init(baseDelay: 0)))
            .timed(by: time)
        let probe = CompletionProbe<Result<String, RequestError>>()
        let handle = TextRequest().perform(using: session) { probe.record($0) }
        #expect(await time.nextWait() == 0, "the backoff of a base delay of 0")
        time.advance(by: 0)
        // The second transfer: wait until it was handed to the transport.
        for _ in 0..<3000 where transport.count < 2 {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(transport.count == 2)
        handle.cancel()
        #expect(try #require(await probe.first()).errorValue?.stage == .cancelled)
        // The stub task reports URLError(.cancelled) once cancelled, long before its 60 s delay.
        let results = await waitForResults(recording, count: 2)
        #expect(results == 2)
    }

    private func waitForResults(_ transport: RecordingTransport, count: Int) async -> Int {
        for _ in 0..<3000 where transport.results.count < count {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return transport.results.count
    }

    @Test("interceptors sit inside the retry link: they adapt every attempt and inspect every response")
    func interceptorsPerAttempt() async throws {
        let log = EventLog()
        let transport = ScriptedTransport([.success(status: 500), .success(body: "ok")])
        let session = Session(
            transport: transport,
            interceptors: [RecordingInterceptor(name: "A", log: log)],
            retryPolicy: WaitRecorder().policy()
        ).timed(by: WaitRecorder())
        #expect(try await session.performProbed(TextRequest()).result?.get() == "ok")
        #expect(log.names == ["adapt A", "inspect A", "adapt A", "inspect A"])
        #expect(transport.sentRequests.allSatisfy { $0.headerValue("X-A") == "A" })
    }

    struct Upload: Request, RequestConfiguration {
        @FilePart("file") var file: MultipartFile? = nil
        var base = stubBase
        var path = "upload"
        var method: HTTPMethod { .put }
        var configuration: Self { self }
        var parser: StringParser { StringParser() }
    }

    @Test("a multipart body streamed from disk is read again, whole, for each attempt")
    func streamedBodyIsRebuilt() async throws {
        let file = try TemporaryFile("data.bin", contents: allByteValues(repeated: 4))
        defer { file.remove() }
        let bodies = Locked<[Data?]>([])
        let count = Locked(0)
        let transport = StubTransport { request in
            bodies.withLock { $0.append(request.sentBody) }
            return count.withLock { count in
                count += 1
                return count < 3 ? .success(status: 503) : .success(body: "stored")
            }
        }
        let session = Session(transport: transport, retryPolicy: WaitRecorder().policy()).timed(by: WaitRecorder())
        #expect(try await session.performProbed(Upload(file: .file(file.url))).result?.get() == "stored")
        let sent = bodies.withLock { $0 }
        #expect(sent.count == 3)
        #expect(sent.allSatisfy { ($0?.count ?? 0) > 1024 })
        // One build, one boundary: every attempt sent the same whole body, from a fresh stream.
        #expect(Set(sent).count == 1)
    }
}

extension RetryPolicy {
    /// The policy changed by `change`.
    func with(_ change: (inout RetryPolicy) -> Void) -> RetryPolicy {
        var policy = self
        change(&policy)
        return policy
    }
}
