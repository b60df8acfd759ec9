import Testing

@testable import APIKitAsyncHTTPClient

@Suite("IdleClock: the idle limit in nanoseconds, however large the timeout")
struct IdleClockTests {
    private static let second: UInt64 = 1_000_000_000

    @Test("an ordinary limit: idle too long at the limit, at a second look 50 ms later")
    func ordinary() {
        var clock = IdleClock(now: 0)
        #expect(clock.start(at: 5 * Self.second, limit: 2) == 7 * Self.second)
        #expect(clock.check(at: 7 * Self.second - 1) == .lookAgain(7 * Self.second))
        #expect(clock.check(at: 7 * Self.second) == .lookAgain(7 * Self.second + 50_000_000))
        #expect(clock.check(at: 7 * Self.second + 50_000_000) == .expired)
    }

    @Test(
        "the caller's code running (a slow consumer, a progress handler) is not idleness; the clock restarts when it returns"
    )
    func callerRunning() {
        var clock = IdleClock(now: 0)
        _ = clock.start(at: 0, limit: 2)
        clock.callerStarted()
        // ten seconds in the caller's code: never idle, at any look
        for look in [2, 3, 10] as [UInt64] {
            #expect(clock.check(at: look * Self.second) == .lookAgain((look + 2) * Self.second))
        }
        clock.callerReturned(at: 10 * Self.second)
        #expect(clock.check(at: 11 * Self.second) == .lookAgain(12 * Self.second))
        #expect(clock.check(at: 12 * Self.second) == .lookAgain(12 * Self.second + 50_000_000))
        #expect(clock.check(at: 12 * Self.second + 50_000_000) == .expired)
    }

    @Test(
        "a finite timeout too large for 64 bits of nanoseconds is no limit: no trap, no wrap-around, never idle",
        arguments: [1.8e10, 1e12, 1e300, Double.greatestFiniteMagnitude])
    func hugeLimit(seconds: Double) {
        var clock = IdleClock(now: 0)
        #expect(clock.start(at: 5 * Self.second, limit: seconds) == .max)
        #expect(clock.limit == .max)
        // a year on, it has not been idle too long (a wrapped sum would say it had, at once)
        let yearLater = 5 * Self.second + 365 * 86_400 * Self.second
        #expect(clock.check(at: yearLater) == .lookAgain(.max))
        #expect(clock.check(at: yearLater) == .lookAgain(.max))
    }

    @Test("a large limit that fits, started late: its end saturates instead of wrapping to the past")
    func saturates() {
        var clock = IdleClock(now: 0)
        let late = UInt64.max - Self.second
        #expect(clock.start(at: late, limit: 1e9) == .max)
        #expect(clock.check(at: late + Self.second / 2) == .lookAgain(.max))
    }
}
