/// How long a transfer has been idle, and what an ``IdleSweeper`` look decides from it: the
/// idle clock both of the transport's roads keep (``AsyncHTTPClientTransfer`` and
/// ``EventLoopTransfer``), always under their own lock.
///
/// Times are `NIODeadline` uptime nanoseconds, as the sweeper's clock gives them.
struct IdleClock {
    /// When something was last sent or received.
    private(set) var lastActivity: UInt64
    /// How long the transfer may be idle, in nanoseconds; `.max` without a timeout.
    private(set) var limit: UInt64 = .max
    /// Whether the last look found the transfer idle too long.
    private var seemsIdle = false
    /// How many calls into the caller's code (a stream's `onEvent`, a progress handler) are
    /// running: the clock measures the network, and stands still meanwhile.
    private var callersRunning = 0

    /// A clock that starts at `now`, with no limit yet.
    init(now: UInt64) {
        lastActivity = now
    }

    /// Starts the clock again at `now` with a limit of `seconds`, and returns when the transfer
    /// would first be idle too long: where the sweeper looks first. A limit beyond what 64 bits
    /// of nanoseconds hold (some 584 years) is no limit.
    mutating func start(at now: UInt64, limit seconds: Double) -> UInt64 {
        lastActivity = now
        let nanoseconds = seconds * 1_000_000_000
        limit = nanoseconds < 1.8e19 ? UInt64(nanoseconds) : .max
        return idleUntil
    }

    /// When the transfer is idle too long, unless something happens before; `.max` when that
    /// is beyond the clock.
    private var idleUntil: UInt64 {
        Self.after(lastActivity, limit)
    }

    /// `limit` after `moment`, or `.max` when that is beyond the clock.
    private static func after(_ moment: UInt64, _ limit: UInt64) -> UInt64 {
        let (sum, overflow) = moment.addingReportingOverflow(limit)
        return overflow ? .max : sum
    }

    /// Notes that something was sent or received at `now`.
    mutating func touch(at now: UInt64) {
        lastActivity = max(lastActivity, now)
    }

    /// Notes that the caller's code starts running: the transfer is not idle until it returns.
    mutating func callerStarted() {
        callersRunning += 1
    }

    /// Notes that the caller's code returned at `now`: the clock starts again from there.
    mutating func callerReturned(at now: UInt64) {
        callersRunning -= 1
        touch(at: now)
    }

    /// A look at the clock: idle too long only when the last look found it so too, a short
    /// while before (see ``IdleSweeper`` for why two looks).
    mutating func check(at now: UInt64) -> IdleCheck {
        if callersRunning > 0 {
            // the caller takes its time: look again once it could have been idle that long
            seemsIdle = false
            return .lookAgain(Self.after(now, limit))
        }
        let idleUntil = idleUntil
        if now < idleUntil {
            seemsIdle = false
            return .lookAgain(idleUntil)
        }
        if seemsIdle { return .expired }
        seemsIdle = true
        return .lookAgain(now + min(limit / 10, 50_000_000))
    }
}

/// What the ``IdleSweeper`` learns from a look at a transfer's idle clock.
enum IdleCheck: Equatable {
    /// Not idle too long: look again at that moment (uptime nanoseconds).
    case lookAgain(UInt64)
    /// Idle too long at two looks in a row: time it out.
    case expired
}

/// A transfer the ``IdleSweeper`` watches.
protocol IdleWatched: AnyObject, Sendable {
    /// A look at the transfer's idle clock at `now`.
    func idleCheck(now: UInt64) -> IdleCheck
    /// Ends the transfer with `URLError(.timedOut)`; does nothing once it has ended.
    func timeOut()
}
