@_spi(Testing) public import APIKit
import APIKitTestSupport
public import Foundation

/// A ``TimeSource`` that moves only when the test says so: waits and timers are due at a
/// moment of its own, and ``advance(by:)`` runs what comes due, earliest first, each at its
/// moment. A test asserts orderings and exact delays without sleeping, and a loaded machine
/// changes nothing.
///
/// ```swift
/// let time = ManualTime()
/// let session = Session(transport: stub, retryPolicy: policy).timed(by: time)
/// let answer = Task { try await Ping().response(using: session) }
/// #expect(await time.nextWait() == 0.5)   // the first retry's backoff, exactly
/// time.advance(by: 0.5)
/// ```
@_spi(Testing) public final class ManualTime: TimeSource, Sendable {
    private struct Pending {
        let due: TimeInterval
        let order: Int
        /// Runs the timer, or ends the wait: thrown `CancellationError` when `cancelled`.
        let run: @Sendable (_ cancelled: Bool) -> Void
    }

    private struct State {
        var elapsed: TimeInterval = 0
        var pending: [Int: Pending] = [:]
        var nextID = 0
        /// Ids whose wait was cancelled before it was registered.
        var cancelledEarly: Set<Int> = []
        /// The length of every wait and timer registered, in order.
        var registered: [TimeInterval] = []
        /// Waiters for ``nextWait()``: the index of the registration each is waiting for.
        var watchers: [(index: Int, continuation: CheckedContinuation<TimeInterval, Never>)] = []
        var handedOut = 0
    }

    private let state = Protected(State())
    /// The date at which the source starts.
    public let start: Date

    /// A clock at `start` that moves only with ``advance(by:)``.
    ///
    /// - Parameter start: The date ``now`` reads before any advance.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.start = start
    }

    /// ``start`` plus ``elapsed``.
    public var now: Date { start.addingTimeInterval(state.withLock { $0.elapsed }) }

    /// Seconds since the source started.
    public var elapsed: TimeInterval { state.withLock { $0.elapsed } }

    /// ``elapsed``: durations are measured on the same hand-driven clock.
    public var uptime: TimeInterval { elapsed }

    /// The lengths of every wait and timer registered so far, in order.
    public var registered: [TimeInterval] { state.withLock { $0.registered } }

    /// How many waits and timers are pending.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Waits until ``advance(by:)`` reaches `seconds` from now.
    ///
    /// - Parameter seconds: How long to wait on this clock.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    public func sleep(for seconds: TimeInterval) async throws {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let registered = register(id: id, seconds: seconds) { cancelled in
                    if cancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
                if !registered { continuation.resume(throwing: CancellationError()) }
            } as Void
        } onCancel: {
            cancelWait(id)
        }
    }

    /// Runs `action` when ``advance(by:)`` reaches `seconds` from now.
    ///
    /// - Parameters:
    ///   - seconds: When to run `action`, on this clock.
    ///   - action: What to run.
    /// - Returns: The timer, to cancel it.
    @_spi(Testing) public func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void)
        -> any ScheduledAction
    {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        _ = register(id: id, seconds: seconds) { cancelled in if !cancelled { action() } }
        return ManualTimer { [weak self] in self?.drop(id) }
    }

    /// Moves time forward by `seconds`, running every wait and timer that comes due, earliest
    /// first (in the order they were registered when due together), each with the time at its
    /// own moment.
    public func advance(by seconds: TimeInterval) {
        let target = state.withLock { $0.elapsed } + max(0, seconds)
        while true {
            let due = state.withLock { state -> Pending? in
                guard
                    let (id, next) = state.pending.min(by: {
                        ($0.value.due, $0.value.order) < ($1.value.due, $1.value.order)
                    }),
                    next.due <= target
                else {
                    state.elapsed = target
                    return nil
                }
                state.pending[id] = nil
                state.elapsed = max(state.elapsed, next.due)
                return next
            }
            guard let due else { return }
            due.run(false)
        }
    }

    /// The length of the next wait or timer registered — one not handed out by an earlier call —
    /// once the code under test has registered it: how a test waits for the code to reach its
    /// wait, without sleeping.
    public func nextWait() async -> TimeInterval {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> TimeInterval? in
                let index = state.handedOut
                state.handedOut += 1
                if index < state.registered.count { return state.registered[index] }
                state.watchers.append((index, continuation))
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Registers a wait or timer `seconds` from now; `false` when its wait was cancelled first.
    private func register(id: Int, seconds: TimeInterval, run: @escaping @Sendable (Bool) -> Void) -> Bool {
        let woken = state.withLock { state -> [(CheckedContinuation<TimeInterval, Never>, TimeInterval)]? in
            if state.cancelledEarly.remove(id) != nil { return nil }
            let length = max(0, seconds)
            state.pending[id] = Pending(due: state.elapsed + length, order: id, run: run)
            state.registered.append(length)
            let index = state.registered.count - 1
            let ready = state.watchers.filter { $0.index == index }
            state.watchers.removeAll { $0.index == index }
            return ready.map { ($0.continuation, length) }
        }
        guard let woken else { return false }
        for (continuation, length) in woken { continuation.resume(returning: length) }
        return true
    }

    /// Ends a cancelled wait: it throws `CancellationError` now, or as soon as it registers.
    private func cancelWait(_ id: Int) {
        let pending = state.withLock { state -> Pending? in
            guard let pending = state.pending.removeValue(forKey: id) else {
                state.cancelledEarly.insert(id)
                return nil
            }
            return pending
        }
        pending?.run(true)
    }

    /// Drops a timer without running it.
    private func drop(_ id: Int) {
        state.withLock { _ = $0.pending.removeValue(forKey: id) }
    }
}

/// A timer of a ``ManualTime``.
private struct ManualTimer: ScheduledAction {
    let onCancel: @Sendable () -> Void

    func cancel() {
        onCancel()
    }
}

extension Session {
    /// This session with its waits and timers measured by `time`.
    @_spi(Testing) public func timed(by time: any TimeSource) -> Session {
        var session = self
        session.time = time
        return session
    }
}
