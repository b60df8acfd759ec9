import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

/// `RequestOptions.resourceTimeout`: APIKit's own limit on one attempt, from send to the whole
/// body, whatever the transport's idle timeout does.
@Suite("RequestOptions.resourceTimeout: one attempt ends in time, once, with URLError(.timedOut)")
struct ResourceTimeoutTests {
    /// A transport that answers after `seconds` (the stub stops early when cancelled).
    func slow(_ seconds: TimeInterval, body: String = "late") -> RecordingTransport {
        RecordingTransport(StubTransport { _ in .success(body: body, delay: seconds) })
    }

    /// A transport that answers after `seconds` of `time` (the stub stops early when cancelled).
    func slow(_ seconds: TimeInterval, body: String = "late", time: ManualTime) -> RecordingTransport {
        RecordingTransport(StubTransport(time: time) { _ in .success(body: body, delay: seconds) })
    }

    /// Expects `result` to be the deadline's failure: stage transport, `URLError(.timedOut)`.
    func expectTimedOut(
        _ result: Result<String, RequestError>?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .failure(.transportFailed(let underlying as URLError, _)) = result else {
            Issue.record(
                "expected .transportFailed(URLError(.timedOut)), got \(String(describing: result))",
                sourceLocation: sourceLocation)
            return
        }
        #expect(underlying.code == .timedOut, sourceLocation: sourceLocation)
        #expect(result?.errorValue?.stage == .transport, sourceLocation: sourceLocation)
    }

    @Test("perform: a transfer that outlasts the deadline fails with .timedOut at its moment, once, and is stopped")
    func performTimesOut() async throws {
        let time = ManualTime()
        let transport = slow(60, time: time)
        let session = Session(transport: transport, options: RequestOptions(resourceTimeout: 0.3)).timed(by: time)
        let probe = CompletionProbe<Result<String, RequestError>>()
        TextRequest().perform(using: session, completion: probe.handler)
        // the deadline's timer and the stub's answer, in either order
        #expect(Set([await time.nextWait(), await time.nextWait()]) == [0.3, 60])
        time.advance(by: 0.299)
        #expect(probe.count == 0)
        time.advance(by: 0.001)
        expectTimedOut(await probe.first())
        // The stub was cancelled: it reports URLError(.cancelled) to APIKit, which drops it.
        let stopped = try #require(await transport.results.first())
        guard case .failure(let error as URLError) = stopped else {
            Issue.record("the transfer was not stopped: \(stopped)")
            return
        }
        #expect(error.code == .cancelled)
        time.advance(by: 3600)
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
    }

    @Test("async response(): throws .transportFailed(.timedOut) once the deadline passes")
    func asyncTimesOut() async throws {
        let time = ManualTime()
        let session = Session(transport: slow(60, time: time)).timed(by: time)
        let answer = Task {
            await TextRequest().result(session: session, options: RequestOptions(resourceTimeout: 0.3))
        }
        #expect(Set([await time.nextWait(), await time.nextWait()]) == [0.3, 60])
        time.advance(by: 0.3)
        expectTimedOut(await answer.value)
        #expect(time.elapsed == 0.3)
    }

    @Test("a transfer that ends before the deadline succeeds, and the timer is stopped and never reports")
    func finishesInTime() async throws {
        let time = ManualTime()
        let transport = slow(0.05, body: "ok", time: time)
        let session = Session(transport: transport, options: RequestOptions(resourceTimeout: 3)).timed(by: time)
        let probe = CompletionProbe<Result<String, RequestError>>()
        TextRequest().perform(using: session, completion: probe.handler)
        #expect(Set([await time.nextWait(), await time.nextWait()]) == [0.05, 3])
        time.advance(by: 0.05)
        #expect(try await probe.first()?.get() == "ok")
        #expect(await probe.released(), "the completion is still held: the deadline's timer was not stopped")
        #expect(time.pendingCount == 0)
        time.advance(by: 3600)
        #expect(probe.count == 1)
    }

    @Test("cancelling before the deadline reports .cancelled once; the timer is stopped")
    func cancelBeforeDeadline() async throws {
        let time = ManualTime()
        let transport = slow(60, time: time)
        let session = Session(transport: transport, options: RequestOptions(resourceTimeout: 4)).timed(by: time)
        let probe = CompletionProbe<Result<String, RequestError>>()
        let handle = TextRequest().perform(using: session, completion: probe.handler)
        // cancel once the transfer and the timer have started
        #expect(Set([await time.nextWait(), await time.nextWait()]) == [4, 60])
        handle.cancel()
        let result = try #require(await probe.first())
        guard case .failure(.cancelled) = result else {
            Issue.record("expected .cancelled, got \(result)")
            return
        }
        #expect(await probe.released(), "the completion is still held: the deadline's timer was not stopped")
        time.advance(by: 3600)  // past the deadline: the stopped timer stays silent
        #expect(probe.count == 1)
    }

    @Test("call > request type > session, as for the other options")
    func precedence() async throws {
        let transport = slow(3, body: "ok")
        let session = Session(transport: transport, options: RequestOptions(resourceTimeout: 0.2))
        // the session's limit applies
        expectTimedOut(await session.performProbed(TextRequest()).result)
        // the request type's wins over the session's
        let patient = OptionsRequest(base: stubBase, options: RequestOptions(resourceTimeout: 20))
        #expect(try await patient.result(session: session).get() == "ok")
        // the call's wins over the request type's
        expectTimedOut(await patient.result(session: session, options: RequestOptions(resourceTimeout: 0.2)))
        // setting only another member does not clear it
        expectTimedOut(await session.performProbed(TextRequest(), options: RequestOptions(timeout: 30)).result)
    }

    @Test("with a retry policy each attempt has the whole deadline again")
    func eachAttemptHasTheDeadline() async throws {
        let transport = ScriptedTransport([
            .success(body: "late", delay: 60), .success(body: "late", delay: 60), .success(body: "ok", delay: 0.05),
        ])
        let session = Session(
            transport: transport, options: RequestOptions(resourceTimeout: 2), retryPolicy: WaitRecorder().policy()
        ).timed(by: WaitRecorder())
        let (result, probe) = await session.performProbed(TextRequest())
        #expect(try result?.get() == "ok")
        #expect(transport.count == 3)
        #expect(await probe.released(), "the completion is still held: a deadline's timer was not stopped")
        #expect(probe.count == 1)

        let down = ScriptedTransport([.success(body: "late", delay: 60)])
        let failing = Session(
            transport: down, options: RequestOptions(resourceTimeout: 0.2), retryPolicy: WaitRecorder().policy()
        ).timed(by: WaitRecorder())
        let error = try #require(await failing.performProbed(TextRequest()).result?.errorValue)
        expectTimedOut(.failure(error))
        #expect(error.context.attempts == 3)
        #expect(down.count == 3)
    }

    @Test(
        "a resource timeout that is not positive and finite → .buildFailed(.invalidTimeout); nothing is sent",
        arguments: [0, -1, Double.nan, Double.infinity]
    )
    func invalid(timeout: TimeInterval) async throws {
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let session = Session(transport: transport)
        let result = await TextRequest().result(session: session, options: RequestOptions(resourceTimeout: timeout))
        guard case .buildFailed(.invalidTimeout(let reported), _) = try #require(result.errorValue) else {
            Issue.record("expected .buildFailed(.invalidTimeout), got \(String(describing: result.errorValue))")
            return
        }
        #expect(reported.isNaN ? timeout.isNaN : reported == timeout)
        #expect(transport.sentRequests.isEmpty)
    }

    @Test("overriding(_:) takes a nil resourceTimeout from the wider options")
    func overriding() {
        let general = RequestOptions(timeout: 30, resourceTimeout: 120)
        #expect(RequestOptions().overriding(general) == general)
        #expect(RequestOptions(timeout: 5).overriding(general) == RequestOptions(timeout: 5, resourceTimeout: 120))
        #expect(RequestOptions(resourceTimeout: 1).overriding(general).resourceTimeout == 1)
    }

    @Test("the idle timeout is still written to the URLRequest; the resource timeout is not")
    func urlRequestKeepsIdleTimeout() async throws {
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let session = Session(transport: transport, options: RequestOptions(timeout: 7, resourceTimeout: 100))
        _ = await TextRequest().result(session: session)
        let sent = try #require(transport.sentRequests.first)
        #expect(sent.timeoutInterval == 7)
    }
}

@Suite("TransferDeadline: exactly one outcome passes, whoever comes first (time driven by hand)")
struct TransferDeadlineTests {
    final class ManualTask: TransportTask {
        let cancelled = Locked(0)
        func cancel() { cancelled.withLock { $0 += 1 } }
    }

    let time = ManualTime()

    @Test("the transport first: claimed once, the timer never fires, not even long after its moment")
    func transportFirst() {
        let deadline = TransferDeadline(seconds: 0.1, time: time)
        let task = ManualTask()
        let fired = Locked(0)
        deadline.arm(cancelling: task) { fired.withLock { $0 += 1 } }
        #expect(time.pendingCount == 1)
        #expect(deadline.claim())
        #expect(!deadline.claim())
        #expect(time.pendingCount == 0, "claim() stops the timer")
        time.advance(by: 3600)
        #expect(fired.withLock { $0 } == 0)
        #expect(task.cancelled.withLock { $0 } == 0)
    }

    @Test("a transport that completes before arm(): the timer is never started")
    func completedBeforeArm() {
        let deadline = TransferDeadline(seconds: 0.05, time: time)
        let task = ManualTask()
        let fired = Locked(0)
        #expect(deadline.claim())
        deadline.arm(cancelling: task) { fired.withLock { $0 += 1 } }
        #expect(time.registered.isEmpty)
        time.advance(by: 3600)
        #expect(fired.withLock { $0 } == 0)
    }

    @Test(
        "the timer first, exactly at its moment: the task is cancelled, the timeout reported once, the answer dropped")
    func timerFirst() {
        let deadline = TransferDeadline(seconds: 30, time: time)
        let task = ManualTask()
        let fired = Locked(0)
        deadline.arm(cancelling: task) { fired.withLock { $0 += 1 } }
        #expect(time.registered == [30])
        time.advance(by: 29.999)
        #expect(fired.withLock { $0 } == 0)
        #expect(task.cancelled.withLock { $0 } == 0)
        time.advance(by: 0.001)
        #expect(fired.withLock { $0 } == 1)
        #expect(task.cancelled.withLock { $0 } == 1)
        #expect(!deadline.claim())
        time.advance(by: 3600)
        #expect(fired.withLock { $0 } == 1)
    }

    @Test("cancel(): the task is cancelled, the timer stopped, and the transport's answer still passes")
    func cancelThenAnswer() {
        let deadline = TransferDeadline(seconds: 0.1, time: time)
        let task = ManualTask()
        let fired = Locked(0)
        deadline.arm(cancelling: task) { fired.withLock { $0 += 1 } }
        deadline.cancel()
        deadline.cancel()
        #expect(task.cancelled.withLock { $0 } == 1)
        #expect(time.pendingCount == 0, "cancel() stops the timer")
        #expect(deadline.claim())
        time.advance(by: 3600)
        #expect(fired.withLock { $0 } == 0)
    }

    @Test("claims racing from many threads, the timer firing among them: exactly one outcome passes")
    func racing() async {
        for _ in 0..<200 {
            let deadline = TransferDeadline(seconds: 1, time: time)
            let passed = Locked(0)
            deadline.arm(cancelling: ManualTask()) { passed.withLock { $0 += 1 } }
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask { if deadline.claim() { passed.withLock { $0 += 1 } } }
                }
                group.addTask { [time] in time.advance(by: 1) }
            }
            // every claimant and the timer have run: whichever won, the others lost
            time.advance(by: 1)
            #expect(passed.withLock { $0 } == 1)
        }
    }
}
