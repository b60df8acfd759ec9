import APIKitTestSupport
import Foundation
import Testing

@Suite("ReleaseProbe")
struct ReleaseProbeTests {
    /// Calls `handler` twice on a queue, the second time after `gate` is recorded, then lets
    /// go of it.
    private func callTwice(_ handler: @escaping @Sendable (Int) -> Void, after gate: CompletionProbe<Bool>) {
        DispatchQueue.global().async {
            handler(1)
            Task {
                _ = await gate.first()
                handler(2)
            }
        }
    }

    @Test("all() waits until the closures are released, so a late second call is counted before it returns")
    func waitsForTheRelease() async {
        let probe = CompletionProbe<Int>()
        let gate = CompletionProbe<Bool>()
        callTwice(probe.handler, after: gate)
        #expect(await probe.first() == 1)
        #expect(await probe.released(timeout: 0.05) == false, "the second call is still to come")
        gate.record(true)
        #expect(await probe.released())
        #expect(probe.all == [1, 2])
    }

    @Test("a closure still held is reported after the timeout; none handed out counts as released")
    func stillHeld() async {
        let released = ReleaseProbe()
        #expect(await released.all(timeout: 0))
        let kept = released.watch { (_: Int) in }
        #expect(released.held == 1)
        #expect(await released.all(timeout: 0.05) == false)
        withExtendedLifetime(kept) {}
    }
}
