import Foundation
import Testing

@_spi(Testing) @testable import APIKit

@Suite("SystemTime: the nanoseconds of a wait or a timer")
struct SystemTimeTests {
    @Test("a wait is its seconds in nanoseconds, however long, up to 31 years (1e9 s)")
    func nanoseconds() {
        #expect(SystemTime.nanoseconds(0.5) == 500_000_000)
        // a resource timeout of two days is two days, not cut to one
        #expect(SystemTime.nanoseconds(2 * 86_400) == 172_800_000_000_000)
        #expect(SystemTime.nanoseconds(1e9) == 1_000_000_000_000_000_000)
        for longer in [1e9 + 1, 1e300, Double.greatestFiniteMagnitude, .infinity] {
            #expect(SystemTime.nanoseconds(longer) == 1_000_000_000_000_000_000, "\(longer)")
        }
        for nothing in [0, -1, -Double.infinity, Double.nan] {
            #expect(SystemTime.nanoseconds(nothing) == 0, "\(nothing)")
        }
    }

    @Test("a timer as far away as the longest is scheduled, and cancelling it keeps it from running")
    func longestTimer() {
        let ran = Locked(false)
        let timer = SystemTime().schedule(after: .greatestFiniteMagnitude) { ran.withLock { $0 = true } }
        timer.cancel()
        #expect(!ran.withLock { $0 })
    }
}
