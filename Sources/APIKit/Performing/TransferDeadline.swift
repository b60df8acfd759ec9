/// Ends a transfer that outlasts ``RequestOptions/resourceTimeout``: a timer started when the
/// transfer is, which cancels it and reports `URLError(.timedOut)` in place of the
/// transport's own completion.
///
/// Whichever comes first — the transport's completion or the timer — is passed on; the other
/// is dropped, so the completion runs exactly once. A cancellation from the caller (through
/// ``cancel()``) stops the timer and the transfer, and lets the transport's completion
/// (usually `URLError(.cancelled)`) through, as an attempt waiting for it needs.
///
/// ```swift
/// let deadline = TransferDeadline(seconds: 30)
/// let task = transport.send(request) { result in
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
        case armed(timer: any DispatchSourceTimer, task: any TransportTask)
        /// The caller cancelled: the timer is stopped, the transport's completion still passes.
        case disarmed
        /// The outcome has been passed on (the transport's or the timeout).
        case finished
    }

    /// The error a transfer that outlasts its deadline fails with.
    static let timedOut = URLError(.timedOut)

    private let seconds: TimeInterval
    private let state = Locked(State.starting)

    /// - Parameter seconds: The time the transfer may take; positive and finite.
    init(seconds: TimeInterval) {
        self.seconds = seconds
    }

    /// Claims the right to pass on the transport's outcome; `false` when the timer already
    /// passed on the timeout. Stops the timer.
    func claim() -> Bool {
        let claimed: (claimed: Bool, timer: (any DispatchSourceTimer)?) = state.withLock { state in
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
    /// first, `task` is cancelled and `onTimeout` runs, on a global queue.
    func arm(cancelling task: any TransportTask, onTimeout: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard case .starting = state else { return }
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.setEventHandler { [self] in
                fire(onTimeout)
            }
            timer.schedule(deadline: .now() + seconds)
            state = .armed(timer: timer, task: task)
            // Resumed under the lock: a timer source released before it is resumed crashes, and
            // `claim()` may cancel it as soon as the lock is released.
            timer.resume()
        }
    }

    /// Stops the timer and the transfer; the transport's completion is still passed on.
    func cancel() {
        let armed: (timer: any DispatchSourceTimer, task: any TransportTask)? = state.withLock { state in
            guard case .armed(let timer, let task) = state else { return nil }
            state = .disarmed
            return (timer, task)
        }
        guard let armed else { return }
        armed.timer.cancel()
        armed.task.cancel()
    }

    private func fire(_ onTimeout: @Sendable () -> Void) {
        let armed: (timer: any DispatchSourceTimer, task: any TransportTask)? = state.withLock { state in
            guard case .armed(let timer, let task) = state else { return nil }
            state = .finished
            return (timer, task)
        }
        guard let armed else { return }
        // Cancelling the source also drops its handler, which holds this deadline.
        armed.timer.cancel()
        armed.task.cancel()
        onTimeout()
    }
}
