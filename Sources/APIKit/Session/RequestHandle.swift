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
    /// ``RequestError/cancelled(context:)``; a request not yet sent is never sent. Once
    /// processing of the response has begun, this does nothing: the completion gets that
    /// outcome instead. Either way the completion is called exactly once. Calling `cancel()`
    /// again does nothing.
    public func cancel() {
        let running: (task: (any TransportTask)?, url: URL?, onCancel: @Sendable (URL?) -> Void)? =
            phase.withLock { phase in
                guard let onCancel = phase.onCancel else { return nil }
                let running = (phase.task, phase.url, onCancel)
                phase.finish()
                return running
            }
        guard let running else { return }
        running.task?.cancel()
        running.onCancel(running.url)
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
