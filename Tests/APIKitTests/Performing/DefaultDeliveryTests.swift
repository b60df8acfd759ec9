import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("perform: default delivery on the session's delegate queue")
struct DefaultDeliveryTests {
    /// What the completion saw: the outcome and whether it ran on the session's delegate queue.
    struct Observation: Sendable {
        var result: Result<String, RequestError>
        var onDelegateQueue: Bool
        /// Whether it ran inside the block that called `perform`: it never may.
        var onCallingQueue: Bool
    }

    private func observe(_ request: ProbeRequest, cancel: Bool = false) async -> (Observation?, Int) {
        let probe = CompletionProbe<Observation>()
        let session = StubURLProtocol.session
        let caller = DispatchQueue(label: "caller")
        let callerKey = DispatchSpecificKey<Bool>()
        caller.setSpecific(key: callerKey, value: true)
        let handle = caller.sync {
            request.perform(session: session) { result in
                probe.record(
                    Observation(
                        result: result,
                        onDelegateQueue: OperationQueue.current === session.delegateQueue,
                        onCallingQueue: DispatchQueue.getSpecific(key: callerKey) == true
                    )
                )
            }
        }
        if cancel { handle.cancel() }
        let first = await probe.first(timeout: 20)
        if first == nil { Issue.record("no completion within 20 s") }
        await settle(cancel ? 1.3 : 0.3)
        return (first, probe.count)
    }

    @Test("success, status errors, build errors and cancellation all complete once on the delegate queue")
    func everyOutcome() async throws {
        let success = StubEndpoint(.status(200, body: "ok"))
        let (ok, okCount) = await observe(ProbeRequest(base: success.base))
        #expect(try ok?.result.get() == "ok")
        #expect(ok?.onDelegateQueue == true && okCount == 1, "\(String(describing: ok)), \(okCount) calls")

        let missing = StubEndpoint(.status(404))
        let (status, statusCount) = await observe(ProbeRequest(base: missing.base))
        #expect(status?.result.errorValue?.statusCode == 404)
        #expect(
            status?.onDelegateQueue == true && statusCount == 1, "\(String(describing: status)), \(statusCount) calls")

        let (build, buildCount) = await observe(ProbeRequest(base: success.base, method: "NOT A TOKEN"))
        #expect(build?.result.errorValue?.stage == .build)
        #expect(
            build?.onDelegateQueue == true && build?.onCallingQueue == false && buildCount == 1,
            "\(String(describing: build)), \(buildCount) calls")

        let slow = StubEndpoint(.status(200, body: "late", delay: 1))
        let (cancelled, cancelledCount) = await observe(ProbeRequest(base: slow.base), cancel: true)
        #expect(cancelled?.result.errorValue?.stage == .cancelled)
        #expect(
            cancelled?.onDelegateQueue == true && cancelledCount == 1,
            "\(String(describing: cancelled)), \(cancelledCount) calls")
    }

    @Test("cancel racing the response on the delegate queue still completes exactly once")
    func cancelRace() async {
        let endpoint = StubEndpoint(.status(200, body: "fast"))
        let canceller = DispatchQueue(label: "canceller")
        var counts: [Int] = []
        for _ in 0..<200 {
            let probe = CompletionProbe<Result<String, RequestError>>()
            let handle = ProbeRequest(base: endpoint.base).perform(session: StubURLProtocol.session) {
                probe.record($0)
            }
            canceller.async { handle.cancel() }
            if await probe.first(timeout: 20) == nil { Issue.record("no completion within 20 s") }
            counts.append(probe.count)
        }
        await settle(0.3)
        #expect(counts.allSatisfy { $0 == 1 })
    }
}
