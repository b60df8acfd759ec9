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
