extension URLResponse {
    /// Whether an ``HTTPCache`` built this response from what it stored: served without asking
    /// the server, or validated by a `304 Not Modified`.
    ///
    /// It reads the last member of the response's `Cache-Status` header (RFC 9211), which the
    /// cache adds: `APIKit; hit`, `APIKit; fwd=stale; fwd-status=304`, or, for a stale response
    /// served because the server could not be reached or failed, one with
    /// `detail=stale-if-error`, or, for the stored copy of an identical call's response,
    /// `APIKit; fwd=miss; collapsed`.
    ///
    /// Read it where the response head is seen: in ``Request/intercept(urlResponse:)``, in
    /// ``Request/response(from:urlResponse:)``, or in an ``Interceptor`` listed before the cache.
    ///
    /// ```swift
    /// if response.isFromHTTPCache { print("answered from the cache") }
    /// ```
    public var isFromHTTPCache: Bool {
        guard let status = (self as? HTTPURLResponse)?.value(forHTTPHeaderField: "Cache-Status"),
            let last = status.split(separator: ",").last
        else { return false }
        let parameters = last.split(separator: ";").map { $0.trimmingOWS }
        guard parameters.first == "APIKit" else { return false }
        return parameters.contains("hit") || parameters.contains("fwd-status=304")
            || parameters.contains("detail=stale-if-error") || parameters.contains("collapsed")
    }
}
