/// A request in flight, returned by ``Request/perform(session:completionQueue:completion:)``
/// and ``Request/perform(using:options:progress:completion:)``.
///
/// Keep it to cancel the request; dropping it does not cancel anything.
///
/// ```swift
/// let handle = request.perform { result in print(result) }
/// handle.cancel()   // the completion receives RequestError.cancelled, once
/// ```
public final class RequestHandle: Sendable {
    /// What the handle knows, changed field by field under its lock.
    private struct Phase {
        /// What to stop on cancellation: the task running the call, or a download's transfer.
        var task: (any TransportTask)?
        /// The request's URL, once built.
        var url: URL?
        /// How to report the cancellation; `nil` once the outcome has been claimed (by the
        /// response, a failure or `cancel()`). Dropping it breaks the cycle it may close.
        var onCancel: (@Sendable (URL?) -> Void)?
        /// The progress steps being passed on now (``passOn(_:)``).
        var steps = 0
        /// What waits for the steps being passed on to return: a cancellation's delivery, a
        /// task about to hand over the outcome.
        var afterSteps: [@Sendable () -> Void] = []

        /// Whether the outcome has been claimed.
        var isFinished: Bool { onCancel == nil }

        /// Claims the outcome: drops what cancellation needed.
        mutating func finish() {
            task = nil
            onCancel = nil
        }
    }

    private let phase: Locked<Phase>

    /// - Parameter onCancel: Delivers the cancellation to the completion, with the request's
    ///   URL once it is known; called at most once, and only when `cancel()` wins the race
    ///   against the response.
    init(onCancelAt onCancel: @escaping @Sendable (URL?) -> Void) {
        phase = Locked(Phase(onCancel: onCancel))
    }

    /// - Parameter onCancel: Delivers the cancellation to the completion; called at most once,
    ///   and only when `cancel()` wins the race against the response.
    convenience init(onCancel: @escaping @Sendable () -> Void) {
        self.init(onCancelAt: { _ in onCancel() })
    }

    /// Cancels the request, if it has not completed yet.
    ///
    /// When the cancellation comes before the response is processed, the network transfer
    /// (or the interceptor running) is stopped and the completion is called with
    /// ``RequestError/cancelled(context:)`` — after a progress step running at that moment has
    /// returned, and no step starts after it; a request not yet sent is never sent. Once
    /// processing of the response has begun, this does nothing: the completion gets that
    /// outcome instead. Either way the completion is called exactly once. Calling `cancel()`
    /// again does nothing.
    public func cancel() {
        let running: (task: (any TransportTask)?, deliver: (@Sendable () -> Void)?)? = phase.withLock { phase in
            guard let onCancel = phase.onCancel else { return nil }
            let (task, url) = (phase.task, phase.url)
            let deliver: @Sendable () -> Void = { onCancel(url) }
            phase.finish()
            // delivered once the steps being passed on have returned: every step before the completion
            guard phase.steps > 0 else { return (task, deliver) }
            phase.afterSteps.append(deliver)
            return (task, nil)
        }
        guard let running else { return }
        running.task?.cancel()
        running.deliver?()
    }

    /// Whether the outcome has been decided: a response received, a failure, or a cancellation.
    public var isFinished: Bool {
        phase.withLock { $0.isFinished }
    }

    /// Records what `cancel()` must stop: the task running the call; returns `false`, and
    /// cancels `task`, when the outcome was already decided.
    @discardableResult
    func attach(_ task: any TransportTask) -> Bool {
        let attached = phase.withLock { phase in
            guard !phase.isFinished else { return false }
            phase.task = task
            return true
        }
        if !attached { task.cancel() }
        return attached
    }

    /// Records the request's URL once it is built, so that a cancellation reports it; returns
    /// `false`, recording nothing, when the outcome was already decided.
    @discardableResult
    func note(url: URL?) -> Bool {
        phase.withLock { phase in
            guard !phase.isFinished else { return false }
            if phase.url == nil, let url { phase.url = url }
            return true
        }
    }

    /// The request's URL, once built.
    var url: URL? {
        phase.withLock { $0.url }
    }

    /// Passes a progress step on, unless the outcome has been decided: no step starts once it
    /// is, and what waits for the steps (``stepsEnded()``, a cancellation's delivery) waits for
    /// this one to return.
    func passOn(_ step: () -> Void) {
        let open = phase.withLock { phase in
            guard !phase.isFinished else { return false }
            phase.steps += 1
            return true
        }
        guard open else { return }
        step()
        let waiting = phase.withLock { phase -> [@Sendable () -> Void] in
            phase.steps -= 1
            guard phase.steps == 0 else { return [] }
            defer { phase.afterSteps = [] }
            return phase.afterSteps
        }
        for waiter in waiting { waiter() }
    }

    /// Returns once no progress step is being passed on: after the outcome is decided, the
    /// steps that had started have returned.
    func stepsEnded() async {
        guard phase.withLock({ $0.steps > 0 }) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let running = phase.withLock { phase in
                guard phase.steps > 0 else { return false }
                phase.afterSteps.append { continuation.resume() }
                return true
            }
            if !running { continuation.resume() }
        }
    }

    /// Claims the right to deliver the outcome; only the first claim (or `cancel()`) wins.
    func claimCompletion() -> Bool {
        phase.withLock { phase in
            guard !phase.isFinished else { return false }
            phase.finish()
            return true
        }
    }
}

/// Lets a ``RequestHandle`` cancel the `Task` that runs a call.
struct TaskCancellation: TransportTask {
    let task: Task<Void, Never>

    func cancel() {
        task.cancel()
    }
}
