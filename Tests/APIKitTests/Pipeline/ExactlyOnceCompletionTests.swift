import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

@Suite("perform: the completion is called exactly once")
struct ExactlyOnceCompletionTests {
    enum Scenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case success, buildError, requestInterceptor, transport, unacceptableStatus, responseInterceptor, parser
        case responseConversion

        var testDescription: String { rawValue }

        var expectedStage: RequestError.Stage? {
            switch self {
            case .success: nil
            case .buildError: .build
            case .requestInterceptor: .requestInterceptor
            case .transport: .transport
            case .unacceptableStatus, .responseInterceptor: .responseValidation
            case .parser: .parsing
            case .responseConversion: .responseConversion
            }
        }
    }

    @Test("success and every failure complete once", arguments: Scenario.allCases)
    func onceForEveryOutcome(scenario: Scenario) async throws {
        let stub: StubbedResponse =
            switch scenario {
            case .transport: .failure(.timedOut)
            case .unacceptableStatus: .status(500, body: "oops")
            default: .status(200, body: "fine")
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
        let request = ProbeRequest(
            base: endpoint.base,
            method: scenario == .buildError ? HTTPMethod(rawValue: "NOT A TOKEN") : .get,
            failing: failing
        )

        let (result, probe) = await request.performProbed()

        let first = try #require(result)
        #expect(first.errorValue?.stage == scenario.expectedStage)
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
    }

    @Test("cancel before the response: .cancelled before the stub answers, never a second call once it has")
    func cancelBeforeResponse() async throws {
        // The stub answers when the test moves its clock 30 s on: the cancellation must come
        // before that. A session of its own, so that the pending answer cannot hold up the
        // other tests' requests on the shared stub session.
        let time = ManualTime()
        var late = StubbedResponse.status(200, body: "late", delay: 30.0)
        late.time = time
        let endpoint = StubEndpoint(late)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        let session = URLSession(configuration: configuration)
        let request = ProbeRequest(base: endpoint.base)
        let probe = CompletionProbe<Result<String, RequestError>>()

        let handle = request.perform(session: session) { probe.record($0) }
        #expect(!handle.isFinished)
        #expect(await endpoint.arrived(), "the request never reached the stub")
        handle.cancel()
        #expect(handle.isFinished)

        // The test's clock says "before the stub answered" (it has not moved); the real-time
        // bound only stops a hang (a busy machine once took 31 s to deliver it: no wall-clock
        // bound on how soon).
        let error = try #require(await probe.first(timeout: 120)?.errorValue, "no cancellation within 120 s")
        #expect(time.elapsed == 0, "cancelled before the stub could answer")
        guard case .cancelled(let context) = error else {
            Issue.record("expected .cancelled, got \(error)")
            return
        }
        #expect(error.stage == .cancelled)
        #expect(context.url?.host == endpoint.host)
        #expect(context.requestType == "ProbeRequest")

        // URLSession stops the load, then the stub's answer comes due: a load that was not
        // stopped would answer now
        #expect(await endpoint.stopped(), "URLSession did not stop the load")
        #expect(await time.nextWait() == 30)
        time.advance(by: 30)
        // a barrier: a request sent afterwards on the same session completes after anything the
        // late answer set off on the session's delegate queue
        let barrier = StubEndpoint(.status(200, body: "after"))
        let after = CompletionProbe<Result<String, RequestError>>()
        ProbeRequest(base: barrier.base).perform(session: session) { after.record($0) }
        #expect(try #require(await after.first()).get() == "after")
        #expect(probe.count == 1)
        #expect(!request.log.names.contains("parse"), "the late response must not be processed")
    }

    @Test("cancel after completion does nothing")
    func cancelAfterCompletion() async throws {
        let endpoint = StubEndpoint(.status(200, body: "done"))
        let request = ProbeRequest(base: endpoint.base)
        let probe = CompletionProbe<Result<String, RequestError>>()

        let handle = request.perform(session: StubURLProtocol.session, completion: probe.handler)
        let first = try #require(await probe.first())
        #expect(try first.get() == "done")
        #expect(handle.isFinished)

        handle.cancel()
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
        #expect(try probe.all.first?.get() == "done")
    }

    @Test("cancel twice: one .cancelled")
    func cancelTwice() async throws {
        // The stub answers when the test moves its clock: never before the cancellations.
        let time = ManualTime()
        var late = StubbedResponse.status(200, body: "late", delay: 0.5)
        late.time = time
        let endpoint = StubEndpoint(late)
        let probe = CompletionProbe<Result<String, RequestError>>()

        let handle = ProbeRequest(base: endpoint.base).perform(
            session: StubURLProtocol.session, completion: probe.handler)
        #expect(await endpoint.arrived(), "the request never reached the stub")
        handle.cancel()
        handle.cancel()

        let error = try #require(await probe.first()?.errorValue)
        #expect(error.stage == .cancelled)
        handle.cancel()
        // URLSession stops the load, then the stub's answer comes due (a load that was not
        // stopped would answer now), then nothing holds the completion any more
        #expect(await endpoint.stopped(), "URLSession did not stop the load")
        time.advance(by: 0.5)
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
    }

    @Test("cancel after a build error does nothing")
    func cancelAfterBuildError() async throws {
        let endpoint = StubEndpoint(.status(200))
        let probe = CompletionProbe<Result<String, RequestError>>()

        let handle = ProbeRequest(base: endpoint.base, method: HTTPMethod(rawValue: "NOT A TOKEN"))
            .perform(session: StubURLProtocol.session, completion: probe.handler)
        #expect(handle.isFinished)
        handle.cancel()

        let error = try #require(await probe.first()?.errorValue)
        #expect(error.stage == .build)
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
    }

    @Test("cancel racing the response from another queue: exactly one completion in each of 500 runs")
    func cancelRacesCompletion() async throws {
        // The property is the pipeline's, so the race runs through StubTransport, which answers
        // on a global queue at once: the cancel and the answer meet in APIKit's own code. (Over
        // corelibs' URLSession, 500 cancels racing completions once trapped inside
        // FoundationNetworking — "a behaviour for a task that in not in the registry" — a race of
        // corelibs' own that no caller can close; the spec road's cancel is covered by the tests
        // above, one cancel at a time.)
        let session = Session(transport: StubTransport { _ in .success(body: "fast", delay: 0.0005) })
        let iterations = 500
        let probes = (0..<iterations).map { _ in CompletionProbe<Result<String, RequestError>>() }
        let cancelQueue = DispatchQueue(label: "apikit.tests.canceller", attributes: .concurrent)

        for (index, probe) in probes.enumerated() {
            let handle = ProbeRequest(base: URL(string: "https://stub.test/api")!).perform(
                using: session, completion: probe.handler)
            // The stub answers 0.5 ms after the request; the cancellations are spread over the
            // first ~1 ms, so that they meet the answers and both outcomes occur.
            cancelQueue.asyncAfter(deadline: .now() + .microseconds(index % 50 * 20)) {
                handle.cancel()
            }
        }

        var successes = 0
        var cancellations = 0
        for (index, probe) in probes.enumerated() {
            guard let result = await probe.first() else {
                Issue.record("run \(index) never completed")
                continue
            }
            switch result {
            case .success(let text): #expect(text == "fast"); successes += 1
            case .failure(let error): #expect(error.stage == .cancelled); cancellations += 1
            }
        }
        // every completion released: no run can complete again
        for (index, probe) in probes.enumerated() {
            if await !probe.released() { Issue.record("run \(index): the completion is still held") }
        }
        let counts = probes.map(\.count)
        #expect(
            counts.allSatisfy { $0 == 1 },
            "runs with more than one completion: \(counts.enumerated().filter { $0.element != 1 }.map(\.offset))")
        #expect(successes + cancellations == iterations)
        print("cancel race: \(successes) successes, \(cancellations) cancellations")
    }
}

@Suite("RequestHandle: claiming the outcome")
struct RequestHandleTests {
    @Test("cancel first: onCancel runs once, and later claims fail")
    func cancelFirst() {
        let counter = Protected(0)
        let handle = RequestHandle(onCancel: { counter.withLock { $0 += 1 } })
        #expect(!handle.isFinished)
        handle.cancel()
        handle.cancel()
        #expect(counter.value == 1)
        #expect(handle.isFinished)
        #expect(!handle.claimCompletion())
    }

    @Test("claim first: cancel does not call onCancel, and a second claim fails")
    func claimFirst() {
        let counter = Protected(0)
        let handle = RequestHandle(onCancel: { counter.withLock { $0 += 1 } })
        #expect(handle.claimCompletion())
        #expect(!handle.claimCompletion())
        handle.cancel()
        #expect(counter.value == 0)
        #expect(handle.isFinished)
    }

    @Test("a task attached after cancel is refused and cancelled")
    func attachAfterCancel() {
        let handle = RequestHandle(onCancel: {})
        handle.cancel()
        let task = StubURLProtocol.session.dataTask(with: URL(string: "https://attach.stub.test/")!)
        #expect(!handle.attach(task))
        #expect(task.state == .canceling || task.state == .completed)
    }

    @Test("concurrent claims and cancels: exactly one wins, 1000 times")
    func concurrentClaims() {
        for _ in 0..<1000 {
            let wins = Protected(0)
            let handle = RequestHandle(onCancel: { wins.withLock { $0 += 1 } })
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                if worker.isMultiple(of: 2) {
                    handle.cancel()
                } else if handle.claimCompletion() {
                    wins.withLock { $0 += 1 }
                }
            }
            #expect(wins.value == 1)
        }
    }
}
