import Foundation

/// The continuations of tests waiting for an event, each given up after its timeout: the waiter
/// list ``CompletionProbe`` and ``ReleaseProbe`` share. Not thread-safe on its own: its owner
/// keeps it under the lock that guards the event, so that checking for the event and starting
/// to wait are one step.
///
/// ```swift
/// lock.lock()
/// if let ready { lock.unlock(); return ready }   // the event already happened
/// let id = waiters.add(continuation)
/// lock.unlock()
/// TimedWaiters<Value?>.expire(after: timeout) { [self] in lock.withLock { waiters.remove(id) }?.resume(returning: nil) }
/// ```
struct TimedWaiters<Value: Sendable> {
    private var waiters: [(id: UUID, continuation: CheckedContinuation<Value, Never>)] = []

    /// Adds a waiter; returns its id, to give it up later.
    mutating func add(_ continuation: CheckedContinuation<Value, Never>) -> UUID {
        let id = UUID()
        waiters.append((id, continuation))
        return id
    }

    /// Removes the waiter `id` and returns it, unless it was already resumed.
    mutating func remove(_ id: UUID) -> CheckedContinuation<Value, Never>? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index).continuation
    }

    /// Removes and returns every waiter: the event happened.
    mutating func removeAll() -> [CheckedContinuation<Value, Never>] {
        defer { waiters.removeAll() }
        return waiters.map(\.continuation)
    }

    /// Runs `giveUp` after `timeout` seconds, on a global queue: a waiter still waiting then is
    /// resumed with its "not happened" value.
    static func expire(after timeout: TimeInterval, _ giveUp: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: giveUp)
    }
}
