/// One ``Transport/send(_:progress:completion:)`` awaited: the default implementation of
/// ``Transport/send(_:)``.
///
/// The continuation is resumed exactly once: with the transport's outcome, or — when the
/// awaiting task is cancelled first — at once with `URLError(.cancelled)`, the transfer
/// cancelled and the transport's late completion ignored (the completion road ignores it too).
/// A task cancelled before the call starts sends nothing. The state's lock makes the single
/// resumption; the continuation is still a checked one, whose synchronization ThreadSanitizer
/// sees (an unchecked one, resumed on the transport's thread, is reported as a race with the
/// resumed task, the runtime's ordering being invisible to it).
final class TransportCall: Sendable {
    private struct State {
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        var task: (any TransportTask)?
        var isCancelled = false
    }

    private let state = Locked(State())

    /// Sends `request` through `transport`'s completion form and awaits the outcome.
    static func send(_ request: URLRequest, through transport: some Transport) async throws -> TransportResponse {
        let call = TransportCall()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                call.start(continuation) {
                    transport.send(request, progress: nil) { result in call.finish(result) }
                }
            }
        } onCancel: {
            call.cancel()
        }
    }

    private func start(
        _ continuation: CheckedContinuation<TransportResponse, any Error>,
        sending send: () -> any TransportTask
    ) {
        let isCancelled = state.withLock { state in
            if !state.isCancelled { state.continuation = continuation }
            return state.isCancelled
        }
        guard !isCancelled else {
            continuation.resume(throwing: URLError(.cancelled))
            return
        }
        let task = send()
        // A cancellation may have come while the transport was starting: it resumed the
        // continuation, but had no task to cancel.
        let cancelsNow = state.withLock { state in
            if !state.isCancelled, state.continuation != nil { state.task = task }
            return state.isCancelled
        }
        if cancelsNow { task.cancel() }
    }

    private func finish(_ result: Result<TransportResponse, any Error>) {
        let continuation = state.withLock { state in
            defer {
                state.continuation = nil
                state.task = nil
            }
            return state.continuation
        }
        continuation?.resume(with: result)
    }

    private func cancel() {
        let running = state.withLock { state in
            defer {
                state.isCancelled = true
                state.continuation = nil
                state.task = nil
            }
            return (continuation: state.continuation, task: state.task)
        }
        running.task?.cancel()
        running.continuation?.resume(throwing: URLError(.cancelled))
    }
}
