extension HTTPCache {
    /// Runs `forward`, the call's request to the server, unless ``collapsesRequests`` is on and
    /// an identical call (same URL, same credential) is already waiting for the server: then
    /// waits for that call to end and answers with what it stored, when that is a response this
    /// request selects and may reuse; else runs `forward` after all.
    ///
    /// A waiter's cancellation ends its own wait only; the leader's failure or cancellation
    /// sends each waiter to the server itself. Every waiter resumes exactly once. The copy is
    /// marked `Cache-Status: APIKit; <forwarded>; collapsed` (`fwd=miss` when nothing was
    /// stored, `fwd=stale` when a stale response was).
    func collapsing(
        _ request: URLRequest, key: String, partition: [UInt8], _ directives: CacheControl, _ forwarded: String,
        _ context: RequestContext, forward: () async throws -> CallResponse
    ) async throws -> CallResponse {
        // A request that asks for the server's answer, or that stores nothing, waits for no one.
        guard collapsesRequests, !directives.noCache, !directives.noStore else { return try await forward() }
        let slot = "\(key) \(partition)"
        if flights.lead(slot) {
            defer { flights.land(slot) }
            return try await forward()
        }
        await flights.wait(slot)
        if Task.isCancelled { throw RequestError.cancelled(context: context.with(detached: nil)) }
        guard let record = await load(key), let stored = Self.select(from: record, for: request, partition: partition)
        else { return try await forward() }
        let freshness = CacheFreshness(of: stored, now: time.now)
        guard freshness.allowsReuse(for: directives) else { return try await forward() }
        try? context.report(.cacheOutcome(.collapsed))
        return served(stored, freshness: freshness, status: "\(forwarded); collapsed")
    }
}

/// The requests to the server that identical calls wait for when an ``HTTPCache`` collapses
/// them: one flight per slot at most, and the continuations of the calls waiting for it.
final class CacheFlights: Sendable {
    private struct State {
        /// The waiters of each flight under way, by id.
        var flights: [String: [Int: CheckedContinuation<Void, Never>]] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    /// Starts a flight for `slot` and returns `true` when none is under way; `false` when one is.
    func lead(_ slot: String) -> Bool {
        state.withLock { state in
            guard state.flights[slot] == nil else { return false }
            state.flights[slot] = [:]
            return true
        }
    }

    /// Ends the flight of `slot`: each of its waiters resumes, once.
    func land(_ slot: String) {
        let waiters = state.withLock { $0.flights.removeValue(forKey: slot) } ?? [:]
        for waiter in waiters.values { waiter.resume() }
    }

    /// Waits until the flight of `slot` lands or the waiting task is cancelled; returns at once
    /// when no flight is under way.
    func wait(_ slot: String) async {
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

    /// How many calls wait for a flight: for tests.
    var waiting: Int {
        state.withLock { $0.flights.values.reduce(0) { $0 + $1.count } }
    }
}
