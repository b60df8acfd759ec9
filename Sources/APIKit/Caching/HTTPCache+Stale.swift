extension HTTPCache {
    /// The statuses that count as the server's failure for `stale-if-error` (RFC 5861 §4).
    static let serverErrorStatuses: Set<Int> = [500, 502, 503, 504]

    /// `stored`, stale, as the answer to a call whose request to validate or replace it threw
    /// `error` (RFC 5861 §4), when `error` is a transport failure and `stale-if-error` allows it;
    /// `nil` otherwise (a cancellation, or any other stage's error, is the call's).
    func staleIfError(
        _ stored: StoredResponse, directives: CacheControl, error: RequestError, context: RequestContext
    ) -> CallResponse? {
        guard case .transportFailed = error else { return nil }
        return staleIfError(stored, directives: directives, forwardStatus: nil, context: context)
    }

    /// `stored`, stale, as the answer to a call whose request to validate or replace it was
    /// answered with `response`, when that is a 500, 502, 503 or 504 and `stale-if-error`
    /// allows it (RFC 5861 §4); `nil` otherwise. The error response is not stored.
    func staleIfError(
        _ stored: StoredResponse, directives: CacheControl, response: CallResponse, context: RequestContext
    ) -> CallResponse? {
        guard let head = response.urlResponse as? HTTPURLResponse, Self.serverErrorStatuses.contains(head.statusCode)
        else { return nil }
        return staleIfError(stored, directives: directives, forwardStatus: head.statusCode, context: context)
    }

    /// The stale response, marked `fwd=stale` with the status the server sent (if any) and
    /// `detail=stale-if-error` (RFC 9211 §2), when its staleness is within the limit.
    private func staleIfError(
        _ stored: StoredResponse, directives: CacheControl, forwardStatus: Int?, context: RequestContext
    ) -> CallResponse? {
        let freshness = CacheFreshness(of: stored, now: time.now)
        guard freshness.allowsStaleIfError(for: directives) else { return nil }
        try? context.report(.cacheOutcome(.staleIfError))
        let forwarded = forwardStatus.map { "fwd=stale; fwd-status=\($0)" } ?? "fwd=stale"
        return served(stored, freshness: freshness, status: forwarded, detail: "stale-if-error")
    }
}
