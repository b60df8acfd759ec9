/// What the cache files responses under and selects them by (RFC 9111 §2, §4.1).
///
/// A store keeps one record per method and URL (its fragment dropped), under a key that is the
/// SHA-256 of the two, in hexadecimal: safe as a file name, and without the URL's query, which
/// often holds an API key. Within a record, each variant is selected by the credential of the
/// request that fetched it (``partition(of:)``) and by the request headers its `Vary` names
/// (``varyFingerprint(of:names:)``), so one user's response is never served to another.
enum CacheKey {
    /// The store key of responses to `method` on `url`.
    static func record(method: String, url: URL) -> String {
        let written = "\(method) \(url.absoluteString)"
        if let key = recordKeys.withLock({ $0[written] }) { return key }
        let key = SHA256.hex("\(method.uppercased()) \(normalised(url))")
        recordKeys.withLock { keys in
            if keys.count >= recordKeysLimit { keys.removeAll(keepingCapacity: true) }
            keys[written] = key
        }
        return key
    }

    /// The keys of the methods and URLs (as written) seen last: a key depends on nothing else,
    /// and the same URLs come back call after call. Emptied when it holds ``recordKeysLimit``.
    private static let recordKeys = Locked<[String: String]>([:])
    private static let recordKeysLimit = 256

    /// `url` as the cache compares it (RFC 9110 §4.2.3): without its fragment, which is never
    /// sent, with the scheme and host lowercased and the scheme's default port left out.
    static func normalised(_ url: URL) -> String {
        let text = url.absoluteString
        let isPlain =
            url.port == nil && !(url.host ?? "").utf8.contains { $0 >= 0x41 && $0 <= 0x5A }
            && !(url.scheme ?? "").utf8.contains { $0 >= 0x41 && $0 <= 0x5A }
        guard !isPlain, var components = URLComponents(string: text) else {
            // The first "#" is where the fragment starts (it is never part of a host or a path).
            guard let hash = text.utf8.firstIndex(of: UInt8(ascii: "#")) else { return text }
            return String(text[..<hash])
        }
        components.fragment = nil
        let scheme = components.scheme?.lowercased()
        components.scheme = scheme
        components.percentEncodedHost = components.percentEncodedHost?.lowercased()
        if (scheme == "https" && components.port == 443) || (scheme == "http" && components.port == 80) {
            components.port = nil
        }
        return components.string ?? text
    }

    /// Whether a response whose URL is `response` answers a request for `request` itself (§4:
    /// a stored response is used only for the target URI it was the answer to): the two URLs
    /// the same as ``normalised(_:)`` makes them, an empty path being `/` (RFC 9110 §4.2.3).
    /// Not when a transport followed a redirect and `response` is where it led. A response
    /// without a URL is taken to be the request's.
    static func isSameTarget(_ response: URL?, as request: URL?) -> Bool {
        guard let response, let request, response != request else { return true }
        return comparable(response) == comparable(request)
    }

    /// ``normalised(_:)``, with `/` for an empty path.
    private static func comparable(_ url: URL) -> String {
        let text = normalised(url)
        guard url.path.isEmpty, var components = URLComponents(string: text), components.percentEncodedPath.isEmpty
        else { return text }
        components.percentEncodedPath = "/"
        return components.string ?? text
    }

    /// The digest of the request's `Authorization`, empty without one.
    static func partition(of request: URLRequest) -> [UInt8] {
        guard let credential = RequestFields(request).value("Authorization") else { return [] }
        return SHA256.digest(credential.utf8)
    }

    /// The header names a response's `Vary` lists: lowercased, trimmed, in order, without
    /// duplicates; `nil` for `Vary: *`, which no request matches (§4.1).
    static func varyNames(of vary: String?) -> [String]? {
        guard let vary else { return [] }
        var names: [String] = []
        for item in vary.split(separator: ",") {
            let name = item.trimmingOWS.lowercased()
            if name == "*" { return nil }
            if !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The digest of `request`'s values of the headers `names`, each normalised: the elements
    /// of a comma list trimmed of whitespace, several lines combined. A header that is absent
    /// differs from one that is empty.
    static func varyFingerprint(of request: URLRequest, names: [String]) -> [UInt8] {
        guard !names.isEmpty else { return [] }
        let fields = RequestFields(request)
        var hasher = SHA256()
        for name in names {
            hasher.update(name.utf8)
            if let value = fields.value(name) {
                hasher.update([1])
                let normalised = value.split(separator: ",", omittingEmptySubsequences: false)
                    .map { $0.trimmingOWS }.joined(separator: ",")
                hasher.update(normalised.utf8)
            } else {
                hasher.update([2])
            }
            hasher.update([0])
        }
        return hasher.finalize()
    }
}
