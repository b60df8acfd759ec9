/// Whether a response may be stored by a private cache (RFC 9111 §3).
enum CacheStorability {
    /// The status codes heuristically cacheable, that is cacheable without explicit freshness
    /// (RFC 9110 §15.1), but `206`, which needs range support the cache does not have.
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]
    /// The final status codes whose caching requirements the cache follows, for
    /// `must-understand` (§5.2.2.3).
    static let understood: Set<Int> = heuristicallyCacheable.union([302, 303, 307, 400, 403, 500, 502, 503, 504])

    /// Whether the response to `request` may be stored.
    ///
    /// - the method is GET (the only one the cache answers);
    /// - the status is final and not `206` (no ranges) or `304` (a validation's answer, not a
    ///   response to keep);
    /// - `no-store` is in neither the request nor the response — unless the response also has
    ///   `must-understand` and a status the cache understands (§5.2.2.3);
    /// - the response's `Vary` is not `*`;
    /// - the response has explicit freshness (`max-age`, `Expires`), `public` or `private`
    ///   (this is a private cache), or a heuristically cacheable status.
    ///
    /// A request's `Authorization` does not prevent storing: §3.5 restricts shared caches only.
    static func isStorable(
        method: String, request: CacheControl, status: Int, response: CacheControl,
        headers: (String) -> String?
    ) -> Bool {
        guard method == "GET", (200...599).contains(status), status != 206, status != 304, !request.noStore else {
            return false
        }
        if response.mustUnderstand {
            guard understood.contains(status) else { return false }
        } else if response.noStore {
            return false
        }
        guard CacheKey.varyNames(of: headers("Vary")) != nil else { return false }
        return response.maxAge != nil || headers("Expires") != nil || response.isPublic || response.isPrivate
            || heuristicallyCacheable.contains(status)
    }
}
