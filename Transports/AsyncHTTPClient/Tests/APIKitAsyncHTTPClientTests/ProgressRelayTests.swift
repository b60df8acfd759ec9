import APIKit
import APIKitTestSupport
import Dispatch
import Testing

@testable import APIKitAsyncHTTPClient

// What the event loop counts and what the caller's handler receives, with the deliveries held
// back by a suspended queue until the test lets them run: no server, no timing.
@Suite("ProgressRelay: the event loop counts, the handler receives on a queue of its own")
struct ProgressRelayTests {
    /// A relay whose deliveries wait on a suspended queue, and what its handler received.
    private struct Held {
        let target = DispatchQueue(label: "ProgressRelayTests.target")
        let steps = Protected<[TransferProgress]>([])
        let released = ReleaseProbe()
        let relay: ProgressRelay

        init(expectedBytesToSend: Int64?) {
            target.suspend()
            relay = ProgressRelay(
                handler: released.watch { [steps] step in steps.withLock { $0.append(step) } },
                expectedBytesToSend: expectedBytesToSend, target: target)
        }

        /// Finishes the relay, lets the deliveries run, and returns how many steps the handler
        /// had received when the completion ran.
        func finish() async throws -> Int {
            let completed = CompletionProbe<Int>()
            relay.finish { [steps] in completed.record(steps.value.count) }
            target.resume()
            return try #require(await completed.first(), "no completion")
        }
    }

    @Test("steps counted while the handler's queue is busy come as one, the latest; the completion after")
    func coalescedThenCompletion() async throws {
        let held = Held(expectedBytesToSend: 100)
        held.relay.sent(10)
        held.relay.sent(20)
        held.relay.responseHead(expectedLength: 7)
        held.relay.received(5)
        #expect(held.steps.value.isEmpty, "a step ran on the event loop's side")
        let stepsAtCompletion = try await held.finish()
        let step = TransferProgress(
            bytesSent: 30, expectedBytesToSend: 100, bytesReceived: 5, expectedBytesToReceive: 7)
        #expect(held.steps.value == [step])
        #expect(stepsAtCompletion == 1, "the completion ran before the step")
    }

    @Test("nothing counted after the finish is delivered, and the handler is let go of")
    func nothingAfterFinish() async throws {
        let held = Held(expectedBytesToSend: nil)
        held.relay.received(3)
        let completed = CompletionProbe<Void>()
        held.relay.finish { completed.record(()) }
        held.relay.received(4)
        held.relay.sent(9)
        held.target.resume()
        _ = try #require(await completed.first(), "no completion")
        #expect(held.steps.value == [TransferProgress(bytesReceived: 3)])
        #expect(await held.released.all(), "the handler is still held")
    }

    @Test("a body written again after a redirect (307, 308) is not counted twice")
    func redirectedBodyCountedOnce() async throws {
        let held = Held(expectedBytesToSend: 50)
        held.relay.requestHeadSent()
        held.relay.sent(50)
        held.relay.requestHeadSent()
        held.relay.sent(30)
        _ = try await held.finish()
        #expect(held.steps.value.map(\.bytesSent) == [50])

        let again = Held(expectedBytesToSend: 50)
        again.relay.requestHeadSent()
        again.relay.sent(40)
        again.relay.requestHeadSent()
        again.relay.sent(45)
        _ = try await again.finish()
        #expect(again.steps.value.map(\.bytesSent) == [45])
    }

    @Test("a step counted while the handler runs is delivered after it, in order")
    func stepDuringHandler() async throws {
        let target = DispatchQueue(label: "ProgressRelayTests.running")
        let steps = Protected<[Int64]>([])
        let inHandler = CompletionProbe<Void>()
        let proceed = DispatchSemaphore(value: 0)
        let relay = ProgressRelay(
            handler: { step in
                steps.withLock { $0.append(step.bytesReceived) }
                if step.bytesReceived == 1 {
                    inHandler.record(())
                    proceed.wait()
                }
            }, expectedBytesToSend: nil, target: target)
        relay.received(1)
        // the handler is running the first step: a step counted now is queued behind it
        _ = try #require(await inHandler.first(), "the first step was not delivered")
        relay.received(2)
        relay.received(3)
        let completed = CompletionProbe<[Int64]>()
        relay.finish { completed.record(steps.value) }
        proceed.signal()
        #expect(try #require(await completed.first(), "no completion") == [1, 6])
    }
}
