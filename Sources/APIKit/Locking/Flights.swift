/// Work under way that other tasks wait for, one flight per slot at most: the request to the
/// server that identical calls wait for when an ``HTTPCache`` collapses them, or the refresh of
/// a credential that the requests rejected with it wait for.
///
/// A waiter resumes exactly once: when its flight lands or when its own task is cancelled,
/// whichever comes first; a cancelled waiter leaves the flight going for the others.
final class Flights<Slot: Hashable & Sendable>: Sendable {
    private struct State {
        /// The waiters of each flight under way, by id.
        var flights: [Slot: [Int: CheckedContinuation<Void, Never>]] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    /// Starts a flight for `slot` and returns `true` when none is under way; `false` when one is.
    func lead(_ slot: Slot) -> Bool {
        state.withLock { state in
            guard state.flights[slot] == nil else { return false }
            state.flights[slot] = [:]
            return true
        }
    }

    /// Ends the flight of `slot`: each of its waiters resumes, once.
    func land(_ slot: Slot) {
        let waiters = state.withLock { $0.flights.removeValue(forKey: slot) } ?? [:]
        for waiter in waiters.values { waiter.resume() }
    }

    /// Whether a flight for `slot` is under way.
    func isUnderWay(_ slot: Slot) -> Bool {
        state.withLock { $0.flights[slot] != nil }
    }

    /// Waits until the flight of `slot` lands or the waiting task is cancelled; returns at once
    /// when no flight is under way.
    func wait(_ slot: Slot) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Checked under the lock: a cancellation after this finds the waiter and resumes
                // it; one before is seen here (the flag is set before the handler runs).
                let joined = state.withLock { state -> Bool in
                    guard state.flights[slot] != nil, !Task.isCancelled else { return false }
                    state.flights[slot]?[id] = continuation
                    return true
                }
                if !joined { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.flights[slot]?.removeValue(forKey: id) }
            waiter?.resume()
        }
    }

    /// How many tasks wait for a flight: for tests.
    var waiting: Int {
        state.withLock { $0.flights.values.reduce(0) { $0 + $1.count } }
    }
}
