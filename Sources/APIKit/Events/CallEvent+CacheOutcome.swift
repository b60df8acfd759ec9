extension CallEvent {
    /// What a cache link did with a call.
    public enum CacheOutcome: Sendable, Hashable {
        /// Answered from the cache: nothing was sent.
        case hit
        /// Not in the cache, or not usable: the request was sent.
        case miss
        /// A stored response was confirmed by the server (`304 Not Modified`) and answered.
        case revalidated
        /// A stale stored response answered because the request to validate or replace it failed
        /// — the server could not be reached, or answered 500, 502, 503 or 504 — and its
        /// `stale-if-error` allowed it (RFC 5861 §4).
        case staleIfError
        /// A stale stored response answered at once, within its `stale-while-revalidate` (RFC 5861
        /// §3), while the cache validates it in the background, apart from the call (the
        /// validation is a call of its own, with its own events).
        case staleWhileRevalidate
        /// Answered with the response an identical call's request brought and the cache stored,
        /// which this call waited for instead of sending its own (`collapsesRequests` of
        /// ``HTTPCache/init(store:collapsesRequests:answersStreamsAndDownloads:)``).
        case collapsed
    }
}
