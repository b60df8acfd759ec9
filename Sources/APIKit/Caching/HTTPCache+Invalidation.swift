extension HTTPCache {
    /// After an unsafe method (§4.4): a response that is not an error removes what is stored
    /// for the request's URL, and for its `Location` and `Content-Location` when they are on
    /// the same origin (another origin could otherwise have one site clear another's responses).
    /// A `GET` or `HEAD` under way for one of them then writes nothing back (``RecordWrites``).
    func invalidate(after response: CallResponse, to url: URL) async {
        guard let head = response.urlResponse as? HTTPURLResponse, (200..<400).contains(head.statusCode) else {
            return
        }
        await invalidateRecord(CacheKey.record(method: "GET", url: url))
        for name in ["Location", "Content-Location"] {
            guard let value = head.value(forHTTPHeaderField: name),
                let target = URL(string: value.trimmingCharacters(in: .whitespaces), relativeTo: url)?.absoluteURL,
                Self.origin(of: target) == Self.origin(of: url)
            else { continue }
            await invalidateRecord(CacheKey.record(method: "GET", url: target))
        }
    }

    /// Removes the record of `key`, voiding the write-backs of the exchanges it overlaps.
    func invalidateRecord(_ key: String) async {
        await writes.invalidate(key) { await store.removeRecord(forKey: key) }
    }

    /// Scheme, host and port (the scheme's default when not written), lowercased.
    private static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }
}
