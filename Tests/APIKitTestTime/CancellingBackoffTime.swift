@_spi(Testing) public import APIKit
public import APIKitTestSupport
public import Foundation

/// A session's time whose waits — a retry's backoff — last 0–2 ms of real time, and, with
/// `cancel`, cancel the request first: a cancellation during every backoff wait of that request.
/// Timers run in real time. For stress tests that mix retries, refreshes and cancellations.
///
/// ```swift
/// let cancelled = Protected(0)
/// session.time = CancellingBackoffTime(cancel: { handle.value?.cancel() }, cancelledInBackoff: cancelled)
/// ```
@_spi(Testing) public struct CancellingBackoffTime: TimeSource {
    let cancel: (@Sendable () -> Void)?
    let cancelledInBackoff: Protected<Int>

    /// A time whose every wait cancels first with `cancel`, when one is given.
    ///
    /// - Parameters:
    ///   - cancel: Cancels the request; `nil` for waits that only wait.
    ///   - cancelledInBackoff: Counts the waits that cancelled.
    public init(cancel: (@Sendable () -> Void)?, cancelledInBackoff: Protected<Int>) {
        self.cancel = cancel
        self.cancelledInBackoff = cancelledInBackoff
    }

    /// `Date()`.
    public var now: Date { Date() }

    /// The real uptime.
    public var uptime: TimeInterval { SystemTime().uptime }

    /// Cancels the request first when `cancel` is set, then waits 0–2 ms.
    ///
    /// - Parameter seconds: Ignored: every wait is short.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    public func sleep(for seconds: TimeInterval) async throws {
        if let cancel {
            cancelledInBackoff.withLock { $0 += 1 }
            cancel()
        }
        try await Task.sleep(nanoseconds: UInt64.random(in: 0...2_000_000))
    }

    /// A real-time timer.
    ///
    /// - Parameters:
    ///   - seconds: When to run `action`.
    ///   - action: What to run.
    /// - Returns: The timer, to cancel it.
    @_spi(Testing) public func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void)
        -> any ScheduledAction
    {
        SystemTime().schedule(after: seconds, action)
    }
}
