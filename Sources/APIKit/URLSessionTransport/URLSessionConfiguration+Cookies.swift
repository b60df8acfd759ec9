extension URLSessionConfiguration {
    /// This configuration, or a copy of it whose cookie accept policy is `.never` when it has no
    /// cookie storage: the configuration ``URLSessionTransport`` makes its `URLSession` with.
    ///
    /// Without a storage a session keeps no cookie, whatever its accept policy, so the copy
    /// behaves the same. It costs less on Linux: unless the policy is `.never`, corelibs
    /// Foundation parses every header line of every response for cookies — a `String` made,
    /// split and trimmed per line — and only then finds that there is nowhere to put them
    /// (a large share of a small request's instructions; see `Benchmarks/README.md`). A
    /// configuration with a storage is returned as it is, and the caller's object is
    /// never changed.
    var acceptingCookiesOnlyWithStorage: URLSessionConfiguration {
        guard httpCookieStorage == nil, httpCookieAcceptPolicy != .never,
            let copy = self.copy() as? URLSessionConfiguration
        else { return self }
        copy.httpCookieAcceptPolicy = .never
        return copy
    }
}
