/// A request in flight, returned by ``Request/perform(session:completionQueue:completion:)``.
///
/// Keep it to cancel the request; dropping it does not cancel anything.
///
/// ```swift
/// let handle = request.perform { result in print(result) }
/// handle.cancel()   // the completion receives RequestError.cancelled, once
/// ```
public final class RequestHandle: Sendable {
    private enum Phase {
        /// Neither finished nor cancelled; the task, once started.
        case running(URLSessionTask?)
        /// The outcome has been claimed: by the response, a failure or `cancel()`.
        case finished
    }

    private let phase = Locked(Phase.running(nil))
    private let onCancel: @Sendable () -> Void

    /// - Parameter onCancel: Delivers the cancellation to the completion; called at most once,
    ///   and only when `cancel()` wins the race against the response.
    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Cancels the request, if it has not completed yet.
    ///
    /// When the cancellation comes before the response is processed on the completion
    /// queue, the network transfer is stopped (if still running) and the completion is
    /// called with ``RequestError/cancelled(context:)``. Once processing of the response
    /// has begun, this does nothing: the completion gets that outcome instead. Either way
    /// the completion is called exactly once. Calling `cancel()` again does nothing.
    public func cancel() {
        let task: URLSessionTask?? = phase.withLock { phase in
            guard case .running(let task) = phase else { return .none }
            phase = .finished
            return .some(task)
        }
        guard case .some(let running) = task else { return }
        running?.cancel()
        onCancel()
    }

    /// Whether the outcome has been decided: a response received, a failure, or a cancellation.
    public var isFinished: Bool {
        phase.withLock { phase in
            if case .finished = phase { return true }
            return false
        }
    }

    /// Records the started task; returns `false`, and cancels it, when `cancel()` came first.
    func attach(_ task: URLSessionTask) -> Bool {
        let attached = phase.withLock { phase in
            guard case .running = phase else { return false }
            phase = .running(task)
            return true
        }
        if !attached { task.cancel() }
        return attached
    }

    /// Claims the right to deliver the outcome; only the first claim (or `cancel()`) wins.
    func claimCompletion() -> Bool {
        phase.withLock { phase in
            guard case .running = phase else { return false }
            phase = .finished
            return true
        }
    }
}
