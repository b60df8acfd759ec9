import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

/// Records progress steps, and whether the completion had been called when each came.
final class ProgressRecorder: Sendable {
    let steps = Locked<[TransferProgress]>([])
    let completed = Locked(false)
    let lateSteps = Locked(0)

    var handler: @Sendable (TransferProgress) -> Void {
        { [steps, completed, lateSteps] progress in
            if completed.withLock({ $0 }) { lateSteps.withLock { $0 += 1 } }
            steps.withLock { $0.append(progress) }
        }
    }

    var all: [TransferProgress] { steps.withLock { $0 } }

    func markCompleted() { completed.withLock { $0 = true } }
}

@Suite("Transfer progress: the progress closure, through every transport")
struct TransferProgressTests {
    @Test("a total URLSession reports as -1 or 0 is unknown")
    func knownTotals() {
        #expect(TransferProgress.known(-1) == nil)
        #expect(TransferProgress.known(0) == nil)
        #expect(TransferProgress.known(7) == 7)
    }

    @Test("StubTransport reports the body sent, then the response received, before the completion")
    func stubProgress() async throws {
        try await expectTotalsAtTheEnd(
            through: Session(transport: StubTransport { _ in .success(body: "hello") }), request: SecretRequest(),
            body: "hello"
        )
    }

    /// Sends `request` through `session` with the completion API and expects the two final steps
    /// of a transport that cannot watch the transfer — the whole body sent, then `body` received —
    /// none after the completion, and one completion.
    private func expectTotalsAtTheEnd(
        through session: Session,
        request: SecretRequest,
        body: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let recorder = ProgressRecorder()
        let probe = CompletionProbe<Result<String, RequestError>>()

        request.perform(
            using: session, progress: recorder.handler, completion: probe.handler { _ in recorder.markCompleted() })

        #expect(try #require(await probe.first()).get() == body, sourceLocation: sourceLocation)
        let sent = Int64(LogSecrets.body.utf8.count)
        let received = Int64(body.utf8.count)
        #expect(
            recorder.all == [
                TransferProgress(bytesSent: sent, expectedBytesToSend: sent),
                TransferProgress(
                    bytesSent: sent, expectedBytesToSend: sent, bytesReceived: received,
                    expectedBytesToReceive: received),
            ],
            sourceLocation: sourceLocation
        )
        #expect(await probe.released(), "the completion is still held", sourceLocation: sourceLocation)
        #expect(recorder.lateSteps.withLock { $0 } == 0, sourceLocation: sourceLocation)
        #expect(probe.count == 1, sourceLocation: sourceLocation)
    }

    @Test("async response(progress:) reports the same steps; a stub failure reports none")
    func asyncProgress() async throws {
        let recorder = ProgressRecorder()
        let session = Session(transport: StubTransport { _ in .success(body: "abc") })
        let value = try await SecretRequest().response(using: session, progress: recorder.handler)
        #expect(value == "abc")
        #expect(recorder.all.last?.bytesReceived == 3)

        let failing = ProgressRecorder()
        let failed = Session(transport: StubTransport { _ in .failure(URLError(.notConnectedToInternet)) })
        await #expect(throws: RequestError.self) {
            try await SecretRequest().response(using: failed, progress: failing.handler)
        }
        #expect(failing.all.isEmpty)
    }

    @Test("a cancelled request reports no progress and completes once with .cancelled")
    func cancelled() async throws {
        let recorder = ProgressRecorder()
        let probe = CompletionProbe<Result<String, RequestError>>()
        let session = Session(transport: StubTransport { _ in .success(body: "late", delay: 60) })

        let handle = SecretRequest().perform(using: session, progress: recorder.handler, completion: probe.handler)
        handle.cancel()

        #expect(try #require(await probe.first()).errorValue?.stage == .cancelled)
        // released once the transport has called back (with the cancellation): any step it
        // would pass on comes before
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
        #expect(recorder.all.isEmpty)
    }

    @Test(
        "a cancellation during a progress step is delivered once that step has returned: no step runs beside the completion"
    )
    func cancelledDuringAStep() async throws {
        let session = Session(transport: StepThenHoldTransport())
        let inStep = CompletionProbe<Bool>()
        let stepEnded = Locked(false)
        let completed = DispatchSemaphore(value: 0)
        let probe = CompletionProbe<(stage: RequestError.Stage?, afterStep: Bool)>()
        let handle = SecretRequest().perform(
            using: session,
            progress: { _ in
                guard inStep.count == 0 else { return }
                inStep.record(true)
                // The test cancels now. A completion delivered beside this step signals at once;
                // one delivered after it never does (the wait then only bounds the step).
                _ = completed.wait(timeout: .now() + 1)
                stepEnded.withLock { $0 = true }
            },
            completion: { result in
                probe.record((result.errorValue?.stage, stepEnded.withLock { $0 }))
                completed.signal()
            })
        #expect(await inStep.first() == true, "no progress step came")
        handle.cancel()
        let outcome = try #require(await probe.first())
        #expect(outcome.stage == .cancelled)
        #expect(outcome.afterStep, "the completion ran while a progress step was running")
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
        #expect(inStep.count == 1, "a step was passed on after the cancellation")
    }

    @Test(
        "an awaiting call cancelled during a progress step returns once that step has returned"
    )
    func asyncCancelledDuringAStep() async throws {
        let session = Session(transport: StepThenHoldTransport())
        let inStep = CompletionProbe<Bool>()
        let stepEnded = Locked(false)
        let release = DispatchSemaphore(value: 0)
        let call = Task { () -> RequestError.Stage? in
            do {
                _ = try await SecretRequest().response(
                    using: session,
                    progress: { _ in
                        guard inStep.count == 0 else { return }
                        inStep.record(true)
                        // the test cancels now; the wait only bounds the step
                        _ = release.wait(timeout: .now() + 1)
                        stepEnded.withLock { $0 = true }
                    })
                return nil
            } catch {
                return (error as? RequestError)?.stage
            }
        }
        #expect(await inStep.first() == true, "no progress step came")
        call.cancel()
        let stage = await call.value
        #expect(stepEnded.withLock { $0 }, "the call returned while a progress step was running")
        release.signal()
        #expect(stage == .cancelled)
        #expect(inStep.count == 1)
    }

    /// A transport that passes one progress step on from a thread of its own and holds the
    /// transfer until it is cancelled, which it ends at once — while the step may still run.
    struct StepThenHoldTransport: Transport {
        final class Transfer: TransportTask {
            let completion: Locked<(@Sendable (Result<TransportResponse, any Error>) -> Void)?>

            init(_ completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void) {
                self.completion = Locked(completion)
            }

            func cancel() {
                let completion = completion.withLock { completion in
                    defer { completion = nil }
                    return completion
                }
                completion?(.failure(URLError(.cancelled)))
            }
        }

        func send(
            _ request: URLRequest,
            progress: (@Sendable (TransferProgress) -> Void)?,
            completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
        ) -> any TransportTask {
            Thread.detachNewThread { progress?(TransferProgress(bytesSent: 1, expectedBytesToSend: 1)) }
            return Transfer(completion)
        }
    }

    @Test(
        "a URLSession passed as the transport reports the totals in two steps just before the completion (it cannot watch the transfer)"
    )
    func urlSessionReportsTotalsAtTheEnd() async throws {
        StubURLProtocol.registry.register(.status(200, body: "plain"), host: "progress-plain.test")
        var request = SecretRequest()
        request.base = try #require(URL(string: "https://progress-plain.test"))
        try await expectTotalsAtTheEnd(
            through: Session(transport: ForeignURLSessionTransport(urlSession: StubURLProtocol.session)),
            request: request, body: "plain")
    }

    @Test("a URLSession passed as the transport reports no progress for a transfer that fails")
    func urlSessionFailureReportsNothing() async throws {
        StubURLProtocol.registry.register(.failure(.networkConnectionLost), host: "progress-plain-failure.test")
        let recorder = ProgressRecorder()
        let session = Session(transport: ForeignURLSessionTransport(urlSession: StubURLProtocol.session))
        var request = SecretRequest()
        request.base = try #require(URL(string: "https://progress-plain-failure.test"))

        let probe = CompletionProbe<Result<String, RequestError>>()

        request.perform(using: session, progress: recorder.handler, completion: probe.handler)

        #expect(try #require(await probe.first()).errorValue?.stage == .transport)
        #expect(await probe.released(), "the completion is still held")
        #expect(recorder.all.isEmpty)
        #expect(probe.count == 1)
    }

    @Test("URLSessionTransport collects the body from its delegate and reports it received")
    func urlSessionTransport() async throws {
        StubURLProtocol.registry.register(
            .status(200, body: String(repeating: "x", count: 5000), headers: ["Content-Length": "5000"]),
            host: "progress-transport.test"
        )
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        let recorder = ProgressRecorder()
        let session = Session(transport: URLSessionTransport(configuration: configuration))
        var request = SecretRequest()
        request.base = try #require(URL(string: "https://progress-transport.test"))

        let value = try await request.response(using: session, progress: recorder.handler)

        #expect(value.count == 5000)
        let last = try #require(recorder.all.last)
        #expect(last.bytesReceived == 5000)
        let received = recorder.all.map(\.bytesReceived)
        #expect(received == received.sorted())
    }

    @Test("URLSessionTransport delivers a transport error once, and works without a progress closure")
    func urlSessionTransportFailure() async throws {
        StubURLProtocol.registry.register(.failure(.cannotConnectToHost), host: "progress-failure.test")
        StubURLProtocol.registry.register(.status(200, body: "ok"), host: "progress-none.test")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        let session = Session(transport: URLSessionTransport(configuration: configuration))
        var request = SecretRequest()
        request.base = try #require(URL(string: "https://progress-failure.test"))

        let result = await request.result(session: session)
        let error = try #require(result.errorValue)
        guard case .transportFailed(let underlying as URLError, _) = error else {
            Issue.record("expected a transport URLError, got \(error)")
            return
        }
        #expect(underlying.code == .cannotConnectToHost)

        request.base = try #require(URL(string: "https://progress-none.test"))
        #expect(try await request.response(using: session) == "ok")
    }
}
