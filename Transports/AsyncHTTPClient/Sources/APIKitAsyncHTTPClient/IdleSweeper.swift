import Foundation
import NIOCore

/// The idle clocks of every transfer that has a timeout (``AsyncHTTPClientTransfer``,
/// ``EventLoopTransfer``), watched from one thread: it sleeps until the earliest moment a
/// transfer could have been idle too long, looks, and times out those that were.
///
/// A watcher per request (a task sleeping beside the transfer in a task group) cost two tasks
/// and a Dispatch timer for every request, and the timer stayed armed for the whole timeout
/// after the request had ended: at thousands of requests per second, hundreds of thousands of
/// them. Here a request costs an insertion and a removal under one lock; the thread wakes when
/// the earliest idle deadline comes, which activity keeps pushing back.
///
/// A timeout is declared on a second look only: when a transfer seems idle too long, it is
/// looked at again a little later (a tenth of its timeout, 50 ms at most), and must still be
/// idle. Bytes that arrived in time but wait for the transfer's task to be scheduled are not
/// the network's idleness.
///
/// The thread is started on first use and lives as long as the process, like SwiftNIO's
/// singleton event loops; it sleeps while no transfer with a timeout is running.
/// Time is an input: the sweeper reads it from its `now` closure (monotonic uptime nanoseconds),
/// and ``look(at:)`` is one look at a given moment, so that tests drive a sweeper without a
/// thread (`startsThread: false`) through a clock of their own and check each decision — when
/// to look next, which transfer expires — without sleeping. The transfers it watches read the
/// same clock (``now``).
final class IdleSweeper: @unchecked Sendable {
    /// The sweeper every transport's transfers use.
    static let shared = IdleSweeper()

    /// Guards everything below; signalled when a transfer's deadline is earlier than the
    /// thread's next look.
    private let condition = NSCondition()
    private var watched: [ObjectIdentifier: any IdleWatched] = [:]
    /// When the thread looks next, in uptime nanoseconds; `.max` while it waits for a signal.
    private var nextLookAt: UInt64 = .max
    private var isThreadStarted: Bool
    /// The current moment, in uptime nanoseconds.
    let now: @Sendable () -> UInt64

    /// - Parameters:
    ///   - now: The clock: monotonic uptime nanoseconds, `NIODeadline`'s by default.
    ///   - startsThread: Whether the first ``watch(_:firstDeadline:)`` starts the thread that
    ///     looks when a deadline comes; a test that calls ``look(at:)`` itself says `false`.
    init(now: @escaping @Sendable () -> UInt64 = { NIODeadline.now().uptimeNanoseconds }, startsThread: Bool = true) {
        self.now = now
        self.isThreadStarted = !startsThread
    }

    /// When the next look is due, in uptime nanoseconds; `.max` when no transfer is watched.
    var nextLook: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return nextLookAt
    }

    /// Watches `transfer` until ``unwatch(_:)``; its clock is ``IdleWatched/idleCheck(now:)``.
    /// A deadline earlier than the next look brings that look forward, and wakes the thread.
    func watch(_ transfer: any IdleWatched, firstDeadline: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        watched[ObjectIdentifier(transfer)] = transfer
        if !isThreadStarted {
            isThreadStarted = true
            let thread = Thread { [self] in run() }
            thread.name = "APIKitAsyncHTTPClient.idle"
            thread.start()
        }
        if firstDeadline < nextLookAt {
            nextLookAt = firstDeadline
            condition.signal()
        }
    }

    /// Stops watching `transfer`.
    func unwatch(_ transfer: any IdleWatched) {
        condition.lock()
        watched[ObjectIdentifier(transfer)] = nil
        condition.unlock()
    }

    /// One look at every transfer at the moment `now`, if the next look is due by then: times
    /// out those idle too long at two looks in a row, stops watching them, and sets the next
    /// look to the earliest moment one of the others could be.
    ///
    /// - Parameter now: The moment of the look, in uptime nanoseconds.
    /// - Returns: The transfers timed out, in no particular order.
    @discardableResult
    func look(at now: UInt64) -> [any IdleWatched] {
        condition.lock()
        let expired = lookLocked(at: now)
        condition.unlock()
        for transfer in expired { transfer.timeOut() }
        return expired
    }

    /// ``look(at:)`` under the lock, without timing the expired transfers out.
    private func lookLocked(at now: UInt64) -> [any IdleWatched] {
        guard now >= nextLookAt else { return [] }
        var next = UInt64.max
        var expired: [any IdleWatched] = []
        for (id, transfer) in watched {
            switch transfer.idleCheck(now: now) {
            case .lookAgain(let deadline): next = min(next, deadline)
            case .expired:
                expired.append(transfer)
                watched[id] = nil
            }
        }
        nextLookAt = next
        return expired
    }

    /// Looks at every transfer when the earliest deadline comes, forever.
    private func run() {
        condition.lock()
        while true {
            let expired = lookLocked(at: now())
            if !expired.isEmpty {
                condition.unlock()
                for transfer in expired { transfer.timeOut() }
                condition.lock()
                continue
            }
            if nextLookAt == .max {
                condition.wait()
            } else {
                let seconds = Double(nextLookAt - min(nextLookAt, now())) / 1e9
                _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
            }
        }
    }
}
