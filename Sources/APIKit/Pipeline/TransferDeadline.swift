/// Ends a transfer that outlasts ``RequestOptions/resourceTimeout``: a timer of the session's
/// ``TimeSource`` started when the transfer is, which cancels it and reports `URLError(.timedOut)` in place of the
/// transport's own completion.
///
/// Whichever comes first — the transport's completion or the timer — is passed on; the other
/// is dropped, so the completion runs exactly once. A cancellation from the caller (through
/// ``cancel()``) stops the timer and the transfer, and lets the transport's completion
/// (usually `URLError(.cancelled)`) through, as an attempt waiting for it needs.
///
/// ```swift nocheck
/// let deadline = TransferDeadline(seconds: 30, time: session.time)
/// let task = transport.send(request, progress: nil) { result in
///     guard deadline.claim() else { return }   // the timer already answered
///     completion(result)
/// }
/// deadline.arm(cancelling: task) { completion(.failure(TransferDeadline.timedOut)) }
/// return deadline                              // cancelling it cancels the transfer
/// ```
final class TransferDeadline: TransportTask {
    private enum State {
        /// The transfer is starting; the timer is not running yet.
        case starting
        /// The timer runs, and stops `task` when it fires.
        case armed(timer: any ScheduledAction, task: any TransportTask)
        /// The caller cancelled: the timer is stopped, the transport's completion still passes.
        case disarmed
        /// The outcome has been passed on (the transport's or the timeout).
        case finished
    }

    /// The error a transfer that outlasts its deadline fails with.
    static let timedOut = URLError(.timedOut)

    private let seconds: TimeInterval
    private let time: any TimeSource
    private let state = Locked(State.starting)

    /// - Parameters:
    ///   - seconds: The time the transfer may take; positive and finite.
    ///   - time: Where the timer takes its time from.
    init(seconds: TimeInterval, time: any TimeSource) {
        self.seconds = seconds
        self.time = time
    }

    /// Claims the right to pass on the transport's outcome; `false` when the timer already
    /// passed on the timeout. Stops the timer.
    func claim() -> Bool {
        let claimed: (claimed: Bool, timer: (any ScheduledAction)?) = state.withLock { state in
            switch state {
            case .starting, .disarmed:
                state = .finished
                return (true, nil)
            case .armed(let timer, _):
                state = .finished
                return (true, timer)
            case .finished:
                return (false, nil)
            }
        }
        claimed.timer?.cancel()
        return claimed.claimed
    }

    /// Starts the timer for `task`, unless the transport has already completed. When it fires
    /// first, `task` is cancelled and `onTimeout` runs, on the time source's thread.
    func arm(cancelling task: any TransportTask, onTimeout: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard case .starting = state else { return }
            // Scheduled under the lock: `claim()` may cancel the timer as soon as it is released,
            // and a timer that fires at once waits for the lock in `fire`.
            let timer = time.schedule(after: seconds) { [self] in fire(onTimeout) }
            state = .armed(timer: timer, task: task)
        }
    }

    /// Stops the timer and the transfer; the transport's completion is still passed on.
    func cancel() {
        let armed: (timer: any ScheduledAction, task: any TransportTask)? = state.withLock { state in
            guard case .armed(let timer, let task) = state else { return nil }
            state = .disarmed
            return (timer, task)
        }
        guard let armed else { return }
        armed.timer.cancel()
        armed.task.cancel()
    }

    private func fire(_ onTimeout: @Sendable () -> Void) {
        let armed: (timer: any ScheduledAction, task: any TransportTask)? = state.withLock { state in
            guard case .armed(let timer, let task) = state else { return nil }
            state = .finished
            return (timer, task)
        }
        guard let armed else { return }
        armed.timer.cancel()
        armed.task.cancel()
        onTimeout()
    }
}
