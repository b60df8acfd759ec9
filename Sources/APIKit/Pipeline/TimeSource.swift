/// Where APIKit takes its time from: every wait — a retry's backoff or `Retry-After`, a
/// reconnection's delay — and every timer — a resource timeout, a stubbed answer's delay — goes
/// through the ``Session``'s time source; the traffic middlewares (``TrafficControl``,
/// ``RetryBudget``), which a session only holds as links, take a `Clock` of their own.
///
/// The one seam between APIKit and the clock, so that tests drive time by hand (a manual source
/// that moves only when told, firing what is due in order) and assert orderings and exact
/// delays without sleeping. ``SystemTime`` is the real one.
///
/// A test hook, not API: it is `@_spi(Testing)`, so only a file that says
/// `@_spi(Testing) import APIKit` sees it, and it is missing from the documentation and the API
/// baseline. An SPI rather than `internal` plus `@testable import`, because the root
/// integration suite is compiled a second time inside the AsyncHTTPClient package, against
/// APIKit as a package dependency, where `@testable` does not reach.
@_spi(Testing) public protocol TimeSource: Sendable {
    /// The current date: what a `Retry-After` HTTP date is measured from when the response
    /// has no `Date` of its own.
    var now: Date { get }

    /// Seconds on a clock that only moves forward, from an origin of the source's choosing:
    /// what durations are measured on (a logged response's `elapsed`), unlike ``now``, which
    /// the system clock may set back.
    var uptime: TimeInterval { get }

    /// Waits `seconds` (a negative value is taken as 0).
    ///
    /// - Parameter seconds: How long to wait.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    func sleep(for seconds: TimeInterval) async throws

    /// Runs `action` once `seconds` have passed (a negative value is taken as 0), on a thread
    /// of the source's choosing and never before this returns, unless the returned timer is
    /// cancelled first.
    ///
    /// - Parameters:
    ///   - seconds: When to run `action`.
    ///   - action: What to run.
    /// - Returns: The timer, to cancel it.
    func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) -> any ScheduledAction
}

/// A timer of a ``TimeSource``: cancelling it keeps its action from running, if it has not run.
@_spi(Testing) public protocol ScheduledAction: Sendable {
    /// Keeps the action from running; does nothing once it ran.
    func cancel()
}

/// The real time: `Task.sleep` for waits, Dispatch timers on a global queue for timers, the
/// system clock for dates.
@_spi(Testing) public struct SystemTime: TimeSource {
    /// The real time.
    @_spi(Testing) public init() {}

    /// `Date()`.
    @_spi(Testing) public var now: Date { Date() }

    /// `DispatchTime`'s uptime, in seconds.
    @_spi(Testing) public var uptime: TimeInterval {
        TimeInterval(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }

    /// `Task.sleep`, at most `SystemTime.longest`.
    ///
    /// - Parameter seconds: How long to wait.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    @_spi(Testing) public func sleep(for seconds: TimeInterval) async throws {
        try await Task.sleep(nanoseconds: Self.nanoseconds(seconds))
    }

    /// A Dispatch timer on a global queue, at most `SystemTime.longest` away.
    ///
    /// - Parameters:
    ///   - seconds: When to run `action`.
    ///   - action: What to run.
    /// - Returns: The timer, to cancel it.
    @_spi(Testing) public func schedule(
        after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void
    ) -> any ScheduledAction {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler {
            // Cancelling the source also drops its handler, and what the handler holds.
            timer.cancel()
            action()
        }
        timer.schedule(deadline: .now() + .nanoseconds(Int(Self.nanoseconds(seconds))))
        timer.resume()
        return DispatchTimer(source: timer)
    }

    /// The longest wait or timer, in seconds (about 31 years): a longer one, such as a resource
    /// timeout that means none, waits this long, which Dispatch's nanoseconds still hold.
    static let longest: TimeInterval = 1e9

    /// `seconds` in nanoseconds, from 0 (NaN and negative values) to `longest`.
    static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        guard seconds.isFinite else { return seconds > 0 ? UInt64(longest * 1_000_000_000) : 0 }
        return UInt64(max(0, min(seconds, longest)) * 1_000_000_000)
    }
}

/// A Dispatch timer source that has been resumed, and so may be released or cancelled at any
/// time.
private struct DispatchTimer: ScheduledAction, @unchecked Sendable {
    /// `@unchecked`: a `DispatchSourceTimer` is safe to cancel from any thread.
    let source: any DispatchSourceTimer

    func cancel() {
        source.cancel()
    }
}
