import APIKitTestSupport

/// A `Clock` that moves only when the test says so: the public seam's counterpart of
/// ``ManualTime``, for middlewares that take a standard clock (``TrafficControl``,
/// ``RetryBudget``). ``advance(by:)`` wakes every sleep that comes due, earliest first.
///
/// ```swift
/// let clock = ManualClock()
/// let traffic = TrafficControl(maxCallsInFlightPerHost: 1, clock: clock)
/// clock.advance(by: .seconds(2))
/// ```
public final class ManualClock: Clock, Sendable {
    /// A moment of the clock: the time since it started.
    public struct Instant: InstantProtocol {
        /// The time since the clock started.
        public var offset: Duration

        /// The moment `duration` after this one.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this moment to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
    }

    private let state = Protected(State())

    /// A clock at zero.
    public init() {}

    /// The current moment.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step: a nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// How many sleeps are waiting.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The deadlines of the sleeps waiting, earliest first.
    public var deadlines: [Duration] { state.withLock { $0.sleepers.values.map(\.deadline.offset).sorted() } }

    /// Waits until ``advance(by:)`` reaches `deadline`.
    ///
    /// - Parameters:
    ///   - deadline: When to wake.
    ///   - tolerance: Ignored.
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and wakes every sleep that comes due, earliest
    /// first.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
