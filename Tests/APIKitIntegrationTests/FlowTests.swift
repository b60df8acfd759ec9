import APIKit
import APIKitTestSupport
import Testing

/// `/anything?i=N`.
struct IndexedRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>

    @Query("i") var index = 0

    var base = HTTPBin.baseURL
    var path = "anything/indexed"
    var method: HTTPMethod = .get
    var configuration: Self { self }
}

@Suite(
    "Cancellation",
    .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason),
    .enabled(if: FaultServer.url != nil, FaultServer.skipReason)
)
struct CancellationTests {
    @Test("cancel() right after perform completes once with .cancelled, well before the response")
    func cancelImmediately() async throws {
        let inFlight = start(NeverAnsweredRequest())
        inFlight.handle.cancel()

        let error = try #require(try await inFlight.result(timeout: 110).failure)
        let elapsed = (inFlight.recorder.firstRecordedAt ?? .now) - inFlight.started
        guard case .cancelled(let context) = error else {
            Issue.record("expected cancelled, got \(error)")
            return
        }
        #expect(error.stage == .cancelled)
        #expect(context.url?.path == "/never")
        // The server never answers (it holds the connection 120 s): finishing proves the cancel
        // did not wait for it, and the bound leaves room for a loaded 2-core machine (one beside
        // stress-ng took 40 s to get a request to the server and cancel it).
        #expect(elapsed < .seconds(100), "cancellation took \(elapsed)")
        #expect(inFlight.handle.isFinished)

        // A second cancel, and the transport's own end of the cancelled transfer, must not bring
        // a second call: the completion is let go of once both are over.
        inFlight.handle.cancel()
        #expect(await inFlight.released(), "the completion is still held")
        #expect(inFlight.completionCount == 1)
    }

    @Test("cancel() while the server is still delaying stops the request")
    func cancelInFlight() async throws {
        let tag = UUID().uuidString
        // a 60 s idle timeout: the server holds the request for 120 s
        let inFlight = start(FaultRequest(path: "never", tag: tag, idleTimeout: 60))
        // under way once the server has it: its connection is tagged there
        var seen: Set<Int> = []
        for _ in 0..<600 where seen.isEmpty {
            seen = try await FaultInjectionTests().taggedPorts(tag)
            if seen.isEmpty { await pause(0.05) }
        }
        try #require(!seen.isEmpty, "the server did not get the request within 120 s")
        #expect(!inFlight.handle.isFinished)
        let cancelled = ContinuousClock.now
        inFlight.handle.cancel()
        inFlight.handle.cancel()

        let error = try #require(try await inFlight.result(timeout: 110).failure)
        guard case .cancelled = error else {
            Issue.record("expected cancelled, got \(error)")
            return
        }
        // from the cancel, not the start: getting the request to the server is not the subject
        // (beside stress-ng it took 40 s); well before the server's 120 s hold ends
        #expect(ContinuousClock.now - cancelled < .seconds(100))

        #expect(await inFlight.released(), "the completion is still held")
        #expect(inFlight.completionCount == 1)
    }

    @Test("cancel() after completion does nothing; the completion ran once")
    func cancelAfterCompletion() async throws {
        let inFlight = start(IndexedRequest(index: 7))
        let echo = try await inFlight.result().get()
        #expect(echo.arg("i") == .one("7"))
        #expect(inFlight.handle.isFinished)

        inFlight.handle.cancel()
        inFlight.handle.cancel()
        #expect(await inFlight.released(), "the completion is still held")
        #expect(inFlight.completionCount == 1)
        if case .failure(let error) = inFlight.recorder.all.last {
            Issue.record("a second, failing completion arrived: \(error)")
        }
    }
}

@Suite("Concurrency and completion queues", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct ConcurrencyTests {
    @Test("200 concurrent performs each complete exactly once with their own response")
    func twoHundredConcurrentRequests() async throws {
        let count = 200
        let started = Protected([InFlight<Echo<NoJSONBody>>?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let inFlight = start(IndexedRequest(index: index))
            started.withLock { $0[index] = inFlight }
        }
        let inFlights = started.withLock { $0 }.compactMap { $0 }
        try #require(inFlights.count == count)

        // a bound for a hang, not a speed: each call now starts in a task of its own, and on a loaded
        // machine the first of 200 may be sent last
        let deadline = ContinuousClock.now + .seconds(100)
        var succeeded = 0
        for (index, inFlight) in inFlights.enumerated() {
            let remaining = deadline - ContinuousClock.now
            let seconds = max(
                0.1, Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18)
            let result: Result<Echo<NoJSONBody>, RequestError>
            do {
                result = try await inFlight.result(timeout: seconds)
            } catch {
                Issue.record("request \(index): \(error)")
                continue
            }
            switch result {
            case .success(let echo):
                #expect(echo.arg("i") == .one(String(index)), "request \(index) got the response of \(echo.url)")
                succeeded += 1
            case .failure(let error):
                Issue.record("request \(index) failed: \(error)")
            }
        }
        #expect(succeeded == count)

        for (index, inFlight) in inFlights.enumerated() {
            if await !inFlight.released() { Issue.record("request \(index): the completion is still held") }
        }
        let calls = inFlights.map(\.completionCount)
        #expect(
            calls.allSatisfy { $0 == 1 },
            "completion counts other than 1: \(calls.enumerated().filter { $0.element != 1 }.map { "#\($0.offset): \($0.element)" })"
        )
    }

    @Test("The completion runs on the session's completionQueue, whatever the outcome")
    func completionQueue() async throws {
        let queue = DispatchQueue(label: "APIKitIntegrationTests.completion")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "completion queue")
        let refused = try HTTPBin.refusedURL()

        @Sendable func onQueue() -> Bool {
            DispatchQueue.getSpecific(key: key) == "completion queue"
        }

        // Success.
        let success = CompletionProbe<Bool>()
        let outcome = CompletionProbe<Result<Echo<NoJSONBody>, RequestError>>()
        IndexedRequest(index: 1).perform(using: TestTransport.session(completionQueue: queue)) { result in
            outcome.record(result)
            success.record(onQueue())
        }
        #expect(await success.first() == true)
        #expect(try await outcome.first(timeout: 120)?.get().arg("i") == .one("1"))

        // A status code rejected after the response arrived.
        let status = CompletionProbe<Bool>()
        StatusRequest(code: 404).perform(using: TestTransport.session(completionQueue: queue)) { _ in
            status.record(onQueue())
        }
        #expect(await status.first() == true)

        // A build failure: nothing is sent, the completion still goes to the queue.
        let build = CompletionProbe<Bool>()
        InjectingHeaderRequest(base: refused).perform(using: TestTransport.session(completionQueue: queue)) { _ in
            build.record(onQueue())
        }
        #expect(await build.first() == true)

        // A cancellation.
        let cancelled = CompletionProbe<Bool>()
        DelayRequest(seconds: 3).perform(using: TestTransport.session(completionQueue: queue)) { _ in
            cancelled.record(onQueue())
        }.cancel()
        #expect(await cancelled.first() == true)

        let counts: [Int] = [success.count, status.count, build.count, cancelled.count]
        #expect(counts == [1, 1, 1, 1])
    }
}
