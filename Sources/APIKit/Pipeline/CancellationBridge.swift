/// Carries a cancellation to something that may not exist yet when the cancellation comes —
/// a `Task`'s cancellation to the ``RequestHandle`` it awaits, or an attempt's to the
/// transport task it is starting.
final class CancellationBridge: Sendable {
    private let state = Locked<(cancelled: Bool, cancel: (@Sendable () -> Void)?)>((false, nil))

    /// Records how to cancel the target; does it at once when the cancellation came first.
    func register(_ cancel: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state in
            state.cancel = cancel
            return state.cancelled
        }
        if cancelled { cancel() }
    }

    /// Cancels the registered target, or the one registered later.
    func cancel() {
        let cancel = state.withLock { state in
            state.cancelled = true
            return state.cancel
        }
        cancel?()
    }
}
