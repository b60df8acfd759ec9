/// How old a stored response is and how long it stays fresh (RFC 9111 §4.2), and whether a
/// request may be answered with it without asking the server.
struct CacheFreshness: Equatable {
    /// The response's current age, in seconds (§4.2.3).
    var age: TimeInterval
    /// Its freshness lifetime, in seconds (§4.2.1): explicit, or heuristic (§4.2.2).
    var lifetime: TimeInterval
    /// The response's own `Cache-Control`.
    var directives: CacheControl

    /// The freshness of `stored` at `now`.
    init(of stored: StoredResponse, now: Date) {
        let reading = stored.reading
        directives = reading.directives
        let dateValue = reading.date.flatMap { HTTPDate.parse($0, now: now) } ?? stored.responseTime
        age = Self.currentAge(of: stored, reading: reading, dateValue: dateValue, now: now)
        lifetime = Self.lifetime(of: stored, reading: reading, dateValue: dateValue, now: now)
    }

    /// Whether the response is fresh: its lifetime exceeds its age (§4.2).
    var isFresh: Bool { lifetime > age }

    /// Seconds the response has been stale; 0 while fresh.
    var staleness: TimeInterval { max(0, age - lifetime) }

    /// Whether `request`'s directives let the cache answer with the response without
    /// validating it (§4, §5.2.1): not when either side says `no-cache`; when fresh, not older
    /// than the request's `max-age` and fresh for at least its `min-fresh`; when stale, only
    /// within the request's `max-stale` and without `must-revalidate`.
    func allowsReuse(for request: CacheControl) -> Bool {
        if directives.noCache || request.noCache { return false }
        if let maxAge = request.maxAge, age > TimeInterval(maxAge) { return false }
        if let minFresh = request.minFresh, lifetime - age < TimeInterval(minFresh) { return false }
        if isFresh { return true }
        guard !directives.mustRevalidate, let maxStale = request.maxStale else { return false }
        guard let limit = maxStale else { return true }
        return staleness <= TimeInterval(limit)
    }

    /// Whether the stale response may answer `request` when the attempt to validate or replace
    /// it failed (RFC 5861 §4): stale by at most the request's `stale-if-error` when it has one
    /// (the caller's word counts for its own call), else the response's. Never a response with
    /// `no-cache` or `must-revalidate` (RFC 9111 §5.2.2.2, §5.2.2.4: it must not be used
    /// without validation), nor for a request with `no-cache` that names no `stale-if-error`.
    func allowsStaleIfError(for request: CacheControl) -> Bool {
        if directives.noCache || directives.mustRevalidate { return false }
        if request.noCache && request.staleIfError == nil { return false }
        guard let limit = request.staleIfError ?? directives.staleIfError else { return false }
        return staleness <= TimeInterval(limit)
    }

    /// Whether the stale response may answer `request` at once while it is validated in the
    /// background (RFC 5861 §3): stale by at most the response's `stale-while-revalidate`.
    /// Never a response with `no-cache` or `must-revalidate`, nor for a request that asks for
    /// a validated response (`no-cache`) or one of a bounded age or freshness (`max-age`,
    /// `min-fresh`).
    func allowsStaleWhileRevalidate(for request: CacheControl) -> Bool {
        if directives.noCache || directives.mustRevalidate || request.noCache { return false }
        if request.maxAge != nil || request.minFresh != nil { return false }
        guard !isFresh, let limit = directives.staleWhileRevalidate else { return false }
        return staleness <= TimeInterval(limit)
    }

    /// §4.2.3: the age the response had when received, corrected for the time the request
    /// took, plus the time it has been stored.
    private static func currentAge(
        of stored: StoredResponse, reading: HeadReading, dateValue: Date, now: Date
    ) -> TimeInterval {
        let ageValue =
            reading.age.flatMap { value in
                // §5.1: a list-based Age counts by its first member; an invalid one is ignored.
                CacheControl.deltaSeconds(value.split(separator: ",").first?.trimmingOWS ?? "")
            } ?? 0
        let apparentAge = max(0, stored.responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, stored.responseTime.timeIntervalSince(stored.requestTime))
        let correctedAgeValue = TimeInterval(ageValue) + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.timeIntervalSince(stored.responseTime))
        return correctedInitialAge + residentTime
    }

    /// §4.2.1: `max-age`, else `Expires` minus `Date` (an invalid `Expires` is in the past),
    /// else the heuristic of §4.2.2.
    private static func lifetime(
        of stored: StoredResponse, reading: HeadReading, dateValue: Date, now: Date
    ) -> TimeInterval {
        if let maxAge = reading.directives.maxAge { return TimeInterval(maxAge) }
        if let expires = reading.expires {
            guard let date = HTTPDate.parse(expires, now: now) else { return 0 }
            return max(0, date.timeIntervalSince(dateValue))
        }
        return heuristicLifetime(of: stored, lastModified: reading.lastModified, dateValue: dateValue, now: now)
    }

    /// §4.2.2: 10% of the time since `Last-Modified`, as OkHttp and browsers do, for a status
    /// that is heuristically cacheable and a URL without a query (OkHttp's rule: a query often
    /// names a result that changes at any time); 0 otherwise.
    private static func heuristicLifetime(
        of stored: StoredResponse, lastModified: String?, dateValue: Date, now: Date
    ) -> TimeInterval {
        guard CacheStorability.heuristicallyCacheable.contains(stored.status),
            let url = URL(string: stored.url), url.query == nil,
            let lastModified = lastModified.flatMap({ HTTPDate.parse($0, now: now) })
        else { return 0 }
        return max(0, dateValue.timeIntervalSince(lastModified)) / 10
    }
}
