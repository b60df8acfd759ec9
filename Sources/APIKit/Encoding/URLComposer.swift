/// Joins a base URL, a path and an encoded query string into the request's URL.
///
/// - The base may carry a path prefix: `https://h/api/v2` + `users` is `https://h/api/v2/users`.
/// - Exactly one `/` joins them, whether or not the base ends with `/` or the path starts
///   with one; an empty path leaves the base's path as it is.
/// - A query already in the base is kept, and the declared items follow it.
/// - A fragment in the base is kept at the end.
enum URLComposer {
    static func url(base: URL, path: String, query: String) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true),
            let scheme = components.scheme, !scheme.isEmpty,
            let host = components.host, !host.isEmpty
        else { return nil }

        if !path.isEmpty {
            components.percentEncodedPath = join(components.percentEncodedPath, PercentEncoding.encodePath(path))
        }
        if !query.isEmpty {
            if let existing = components.percentEncodedQuery, !existing.isEmpty {
                components.percentEncodedQuery = existing + "&" + query
            } else {
                components.percentEncodedQuery = query
            }
        }
        return components.url
    }

    private static func join(_ basePath: String, _ path: String) -> String {
        var prefix = Substring(basePath)
        while prefix.hasSuffix("/") { prefix = prefix.dropLast() }
        var suffix = Substring(path)
        while suffix.hasPrefix("/") { suffix = suffix.dropFirst() }
        return prefix + "/" + suffix
    }
}
