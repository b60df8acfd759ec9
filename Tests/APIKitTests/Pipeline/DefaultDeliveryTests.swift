import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
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

    /// Performs `request` (cancelling it once in flight when `cancel` is set) and returns the first
    /// completion and how many there were once nothing holds the completion any more, after
    /// moving `time` on by `late` seconds: the stub's delayed answer comes due.
    private func observe(
        _ request: ProbeRequest, cancel: Bool = false, late: (time: ManualTime, seconds: TimeInterval)? = nil
    ) async -> (Observation?, Int) {
        let probe = CompletionProbe<Observation>()
        let released = ReleaseProbe()
        let session = StubURLProtocol.session
        let caller = DispatchQueue(label: "caller")
        let callerKey = DispatchSpecificKey<Bool>()
        caller.setSpecific(key: callerKey, value: true)
        let handle = caller.sync {
            request.perform(
                session: session,
                completion: released.watch { result in
                    probe.record(
                        Observation(
                            result: result,
                            onDelegateQueue: OperationQueue.current === session.delegateQueue,
                            onCallingQueue: DispatchQueue.getSpecific(key: callerKey) == true
                        )
                    )
                })
        }
        if cancel {
            // a call runs in a task of its own: cancel it once the request is in flight
            if let host = request.base.host, await StubURLProtocol.registry.arrivals(host: host).first() == nil {
                Issue.record("the request never reached the stub")
            }
            handle.cancel()
        }
        let first = await probe.first()
        if first == nil { Issue.record("no completion within 120 s") }
        if let late {
            // corelibs stops a cancelled load before the stub's answer comes due (see
            // StubEndpoint.stopped(timeout:))
            if cancel, let host = request.base.host, await !StubURLProtocol.registry.stopped(host: host) {
                Issue.record("URLSession did not stop the load")
            }
            late.time.advance(by: late.seconds)
        }
        if await !released.all() { Issue.record("the completion is still held") }
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

        let (build, buildCount) = await observe(
            ProbeRequest(base: success.base, method: HTTPMethod(rawValue: "NOT A TOKEN")))
        #expect(build?.result.errorValue?.stage == .build)
        #expect(
            build?.onDelegateQueue == true && build?.onCallingQueue == false && buildCount == 1,
            "\(String(describing: build)), \(buildCount) calls")

        // answers when the test moves its clock: never before the cancellation
        let time = ManualTime()
        var late = StubbedResponse.status(200, body: "late", delay: 1)
        late.time = time
        let slow = StubEndpoint(late)
        let (cancelled, cancelledCount) = await observe(
            ProbeRequest(base: slow.base), cancel: true, late: (time, 1))
        #expect(cancelled?.result.errorValue?.stage == .cancelled)
        #expect(
            cancelled?.onDelegateQueue == true && cancelledCount == 1,
            "\(String(describing: cancelled)), \(cancelledCount) calls")
    }
}
