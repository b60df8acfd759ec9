import APIKit
import APIKitTestSupport
import Foundation
import Testing

@testable import APIKitAsyncHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The idle timeout's decisions, with time as an input: a sweeper without a thread, on a clock
/// the test moves, looked at when the test says. Each decision — when to look next, which
/// transfer expires, and when — is checked at its exact nanosecond, whatever the machine does.
@Suite("IdleSweeper: when it looks, and what it times out (time driven by hand)")
struct IdleSweeperTests {
    private static let second: UInt64 = 1_000_000_000
    private static let millisecond: UInt64 = 1_000_000

    /// A clock that moves only when the test sets it.
    let clock = Protected<UInt64>(0)
    let sweeper: IdleSweeper

    init() {
        sweeper = IdleSweeper(now: { [clock] in clock.value }, startsThread: false)
    }

    func transfer() -> AsyncHTTPClientTransfer {
        AsyncHTTPClientTransfer(
            request: URLRequest(url: URL(string: "http://127.0.0.1:9/idle")!),
            delivery: .whole(progress: nil, completion: { _ in }), sweeper: sweeper)
    }

    func set(_ nanoseconds: UInt64) {
        clock.withLock { $0 = nanoseconds }
    }

    @Test("idle for its whole limit: timed out at a second look a tenth of the limit later (50 ms at most), not before")
    func expiresOnTheSecondLook() {
        let idle = transfer()
        idle.startIdleClock(limit: 1)
        #expect(sweeper.nextLook == Self.second)
        #expect(sweeper.look(at: Self.second - 1).isEmpty, "not due yet")
        #expect(sweeper.nextLook == Self.second)
        #expect(sweeper.look(at: Self.second).isEmpty, "the first look that finds it idle only looks again")
        #expect(sweeper.nextLook == Self.second + 50 * Self.millisecond)
        #expect(!idle.isTimedOut)
        #expect(
            sweeper.look(at: Self.second + 50 * Self.millisecond).map(ObjectIdentifier.init) == [ObjectIdentifier(idle)]
        )
        #expect(idle.isTimedOut)
        #expect(sweeper.nextLook == .max, "nothing left to watch")
    }

    @Test("a short limit looks again a tenth of it later")
    func shortLimit() {
        transfer().startIdleClock(limit: 0.2)
        _ = sweeper.look(at: 200 * Self.millisecond)
        #expect(sweeper.nextLook == 220 * Self.millisecond)
    }

    @Test("activity pushes the deadline back, and a look that found the transfer idle is forgotten")
    func activityPushesBack() {
        let busy = transfer()
        busy.startIdleClock(limit: 1)
        set(900 * Self.millisecond)
        busy.touch()
        #expect(sweeper.look(at: Self.second).isEmpty)
        #expect(sweeper.nextLook == 1_900 * Self.millisecond)
        #expect(sweeper.look(at: 1_900 * Self.millisecond).isEmpty, "idle: look again")
        set(1_920 * Self.millisecond)
        busy.touch()
        #expect(sweeper.look(at: 1_950 * Self.millisecond).isEmpty, "bytes came between the two looks")
        #expect(sweeper.nextLook == 2_920 * Self.millisecond)
        #expect(!busy.isTimedOut)
    }

    @Test("a deadline earlier than the next look brings the look forward; a later one does not")
    func earlierDeadlineComesFirst() {
        let long = transfer()
        long.startIdleClock(limit: 60)
        #expect(sweeper.nextLook == 60 * Self.second)
        let short = transfer()
        short.startIdleClock(limit: 1)
        #expect(sweeper.nextLook == Self.second)
        transfer().startIdleClock(limit: 30)
        #expect(sweeper.nextLook == Self.second)
        _ = sweeper.look(at: Self.second)
        _ = sweeper.look(at: Self.second + 50 * Self.millisecond)
        #expect(short.isTimedOut)
        #expect(!long.isTimedOut)
        #expect(sweeper.nextLook == 30 * Self.second)
    }

    @Test("an unwatched transfer is never timed out")
    func unwatched() {
        let done = transfer()
        done.startIdleClock(limit: 1)
        sweeper.unwatch(done)
        _ = sweeper.look(at: Self.second)
        _ = sweeper.look(at: 2 * Self.second)
        #expect(!done.isTimedOut)
    }

    // Real time, for the thread itself: it sleeps toward a deadline a minute away when a 100 ms
    // one is registered; it must wake for it. 10 s is a hundred times what it should take.
    @Test("the thread wakes for an earlier deadline registered while it sleeps toward a later one")
    func threadWakesForEarlierDeadline() async throws {
        let sweeper = IdleSweeper()
        func make() -> AsyncHTTPClientTransfer {
            AsyncHTTPClientTransfer(
                request: URLRequest(url: URL(string: "http://127.0.0.1:9/idle")!),
                delivery: .whole(progress: nil, completion: { _ in }), sweeper: sweeper)
        }
        let long = make()
        long.startIdleClock(limit: 60)
        let short = make()
        short.startIdleClock(limit: 0.1)
        let started = ContinuousClock.now
        while !short.isTimedOut, ContinuousClock.now - started < .seconds(60) {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(short.isTimedOut, "not timed out within 60 s")
        #expect(!long.isTimedOut)
        sweeper.unwatch(long)
    }
}
