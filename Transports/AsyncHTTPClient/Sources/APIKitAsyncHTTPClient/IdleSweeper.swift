import Foundation
import NIOCore

/// The idle clocks of every ``AsyncHTTPClientTransfer`` that has a timeout, watched from one
/// thread: it sleeps until the earliest moment a transfer could have been idle too long, looks,
/// and times out those that were.
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
final class IdleSweeper: @unchecked Sendable {
    /// The sweeper every transport's transfers use.
    static let shared = IdleSweeper()

    /// Guards everything below; signalled when a transfer's deadline is earlier than the
    /// thread's next look.
    private let condition = NSCondition()
    private var watched: [ObjectIdentifier: AsyncHTTPClientTransfer] = [:]
    /// When the thread looks next, in uptime nanoseconds; `.max` while it waits for a signal.
    private var nextLook: UInt64 = .max
    private var isThreadStarted = false

    /// Watches `transfer` until ``unwatch(_:)``; its clock is ``AsyncHTTPClientTransfer/idleCheck(now:)``.
    func watch(_ transfer: AsyncHTTPClientTransfer, firstDeadline: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        watched[ObjectIdentifier(transfer)] = transfer
        if !isThreadStarted {
            isThreadStarted = true
            let thread = Thread { [self] in run() }
            thread.name = "APIKitAsyncHTTPClient.idle"
            thread.start()
        }
        if firstDeadline < nextLook {
            nextLook = firstDeadline
            condition.signal()
        }
    }

    /// Stops watching `transfer`.
    func unwatch(_ transfer: AsyncHTTPClientTransfer) {
        condition.lock()
        watched[ObjectIdentifier(transfer)] = nil
        condition.unlock()
    }

    /// Looks at every transfer when the earliest deadline comes, forever.
    private func run() {
        condition.lock()
        while true {
            let now = NIODeadline.now().uptimeNanoseconds
            if now >= nextLook {
                var next = UInt64.max
                var expired: [AsyncHTTPClientTransfer] = []
                for (id, transfer) in watched {
                    switch transfer.idleCheck(now: now) {
                    case .lookAgain(let deadline): next = min(next, deadline)
                    case .expired:
                        expired.append(transfer)
                        watched[id] = nil
                    }
                }
                nextLook = next
                if !expired.isEmpty {
                    condition.unlock()
                    for transfer in expired { transfer.timeOut() }
                    condition.lock()
                    continue
                }
            }
            if nextLook == .max {
                condition.wait()
            } else {
                let seconds = Double(nextLook - min(nextLook, NIODeadline.now().uptimeNanoseconds)) / 1e9
                _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
            }
        }
    }
}
