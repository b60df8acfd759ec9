import APIKit
import Dispatch
import NIOConcurrencyHelpers

/// The progress of an ``EventLoopTransfer``, counted on the event loop and handed to the
/// caller's handler on a serial queue of the transfer's own, followed there by the completion.
///
/// The event loop never runs the caller's code nor waits for it: a step is counted under a
/// lock and, when no delivery is queued yet, one is queued. A delivery hands over the progress
/// as it is when it runs, so a handler that takes its time receives fewer, later steps, never a
/// backlog, and never holds the transfer back. The completion is queued behind the deliveries
/// already queued, and nothing is counted or queued after it: every step comes before the
/// completion, in order.
final class ProgressRelay: Sendable {
    private struct State {
        var progress: TransferProgress
        /// The `Content-Length` of the final response, reported with its first body bytes.
        var announced: Int64?
        /// The body bytes written for the request being sent now: a redirect that keeps the
        /// body (307, 308) writes it again from its first byte, which is not counted twice.
        var sentForThisRequest: Int64 = 0
        var isQueued = false
        var isFinished = false
        /// The caller's handler; dropped once the completion is delivered.
        var handler: (@Sendable (TransferProgress) -> Void)?
    }

    /// Where the steps and then the completion are delivered, one at a time.
    let queue: DispatchQueue
    private let state: NIOLockedValueBox<State>

    /// - Parameters:
    ///   - handler: The caller's progress handler.
    ///   - expectedBytesToSend: The size of the request body, when it has one.
    ///   - target: The queue whose threads run the deliveries.
    init(
        handler: @escaping @Sendable (TransferProgress) -> Void, expectedBytesToSend: Int64?,
        target: DispatchQueue
    ) {
        self.queue = DispatchQueue(label: "APIKitAsyncHTTPClient.progress", target: target)
        self.state = NIOLockedValueBox(
            State(progress: TransferProgress(expectedBytesToSend: expectedBytesToSend), handler: handler))
    }

    /// A request head went out: its body, if any, is written from its first byte.
    func requestHeadSent() {
        state.withLockedValue { $0.sentForThisRequest = 0 }
    }

    /// `count` bytes of the body were written to the connection.
    func sent(_ count: Int) {
        update { state in
            state.sentForThisRequest += Int64(count)
            let sent = min(state.sentForThisRequest, state.progress.expectedBytesToSend ?? .max)
            guard sent > state.progress.bytesSent else { return false }
            state.progress.bytesSent = sent
            return true
        }
    }

    /// The final response's head arrived, announcing `expectedLength` bytes of body: the
    /// expected total of the steps from its first body bytes on (a `HEAD` response's or a
    /// `304`'s length announces none).
    func responseHead(expectedLength: Int64?) {
        state.withLockedValue { $0.announced = expectedLength }
    }

    /// `count` bytes of the response body arrived.
    func received(_ count: Int) {
        update { state in
            state.progress.bytesReceived += Int64(count)
            state.progress.expectedBytesToReceive = state.announced
            return true
        }
    }

    /// Ends the progress and queues `completion` behind the steps already queued; the handler
    /// is let go of before the completion runs.
    func finish(then completion: @escaping @Sendable () -> Void) {
        state.withLockedValue { state in
            state.isFinished = true
            queue.async { [self] in
                self.state.withLockedValue { $0.handler = nil }
                completion()
            }
        }
    }

    /// Applies `change` unless the progress has ended; queues a delivery when `change` says
    /// the progress moved and none is queued. The queueing is under the lock, so that a
    /// delivery can never be queued behind the completion.
    private func update(_ change: (inout State) -> Bool) {
        state.withLockedValue { state in
            guard !state.isFinished, change(&state), !state.isQueued else { return }
            state.isQueued = true
            queue.async { [self] in deliver() }
        }
    }

    private func deliver() {
        let (progress, handler) = state.withLockedValue { state in
            state.isQueued = false
            return (state.progress, state.handler)
        }
        handler?(progress)
    }
}
