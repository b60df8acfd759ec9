/// Joins a base URL, a path and an encoded query string into the request's URL.
///
/// - The base may carry a path prefix: `https://h/api/v2` + `users` is `https://h/api/v2/users`.
/// - Exactly one `/` joins them, whether or not the base ends with `/` or the path starts
///   with one; an empty path leaves the base's path as it is.
/// - A query already in the base is kept, and the declared items follow it.
/// - A fragment in the base is kept at the end.
/// - The result must have a scheme and a host.
///
/// ``url(_:appendingQuery:)`` appends more items to a URL already composed.
///
/// The URL is written as text and parsed once: `URLComponents` would parse and re-serialise
/// every part, at several times the cost.
enum URLComposer {
    /// - Parameters:
    ///   - path: The request's path; only whether it is empty is read here.
    ///   - appendPath: Appends the path, percent-encoded, to the URL's text (``PathTemplate``).
    ///     Its own leading slashes are dropped.
    ///   - appendQuery: Appends the declared query items, already percent-encoded and joined
    ///     by `&`, to the URL's text; they are written in place, not copied.
    @inline(__always)
    static func url<Failure: Error>(
        base: URL,
        path: String,
        appendingPath appendPath: (inout [UInt8]) throws(Failure) -> Void,
        appendingQuery appendQuery: (inout [UInt8]) throws(Failure) -> Void
    ) throws(Failure) -> URL? {
        var absolute = base.absoluteString
        var text: [UInt8] = []
        // The base split into the part up to its path, its query and its fragment.
        var query: Range<Int> = 0..<0
        var fragment: Range<Int> = 0..<0
        absolute.withUTF8 { utf8 in
            let hash = utf8.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
            let question = utf8[..<hash].firstIndex(of: UInt8(ascii: "?")) ?? hash
            query = question..<hash
            fragment = hash..<utf8.endIndex
            text.reserveCapacity(2 * utf8.count + path.utf8.count + 64)
            text.append(contentsOf: utf8[..<question])
        }
        if path.isEmpty {
            try appendPath(&text)  // writes nothing, but may find the path values unused
        } else {
            while text.last == UInt8(ascii: "/") { text.removeLast() }
            text.append(UInt8(ascii: "/"))
            let pathStart = text.count
            try appendPath(&text)
            let slashes = text[pathStart...].prefix { $0 == UInt8(ascii: "/") }.count
            if slashes > 0 { text.removeSubrange(pathStart..<pathStart + slashes) }
        }
        // The base's query, if any, then a separator for the declared items (none after a
        // query that ends with one).
        var separated = true
        if query.count > 1 {
            absolute.withUTF8 { utf8 in text.append(contentsOf: utf8[query]) }
            separated = text.last != UInt8(ascii: "&")
            if separated { text.append(UInt8(ascii: "&")) }
        } else {
            text.append(UInt8(ascii: "?"))
        }
        let itemsStart = text.count
        try appendQuery(&text)
        if text.count == itemsStart, separated { text.removeLast() }  // no items: drop the "&" or "?"
        absolute.withUTF8 { utf8 in text.append(contentsOf: utf8[fragment]) }
        guard hasSchemeAndHost(text) else { return nil }
        return URL(string: String(decoding: text, as: UTF8.self))
    }

    /// `url` with more query items after its own and before its fragment: how items are added
    /// to a request already built (``Session/defaultQueryItems``).
    ///
    /// A URL without a query gets `?`, one with a query gets `&` (none after a trailing `?` or
    /// `&`); a fragment stays at the end.
    ///
    /// - Parameter appendQuery: Receives the names of the items the URL's query already has,
    ///   percent-decoded (a bare key such as `flag` counts), and appends items, already
    ///   percent-encoded and joined by `&`, to the URL's text.
    /// - Returns: `url` itself when nothing was appended; `nil` when the new text is not a URL.
    static func url<Failure: Error>(
        _ url: URL,
        appendingQuery appendQuery: (_ existingNames: Set<String>, _ text: inout [UInt8]) throws(Failure) -> Void
    ) throws(Failure) -> URL? {
        var absolute = url.absoluteString
        var text: [UInt8] = []
        var names: Set<String> = []
        var fragment: Range<Int> = 0..<0
        absolute.withUTF8 { utf8 in
            let hash = utf8.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
            let question = utf8[..<hash].firstIndex(of: UInt8(ascii: "?")) ?? hash
            fragment = hash..<utf8.endIndex
            text.reserveCapacity(utf8.count + 64)
            text.append(contentsOf: utf8[..<hash])
            guard question < hash else {
                text.append(UInt8(ascii: "?"))
                return
            }
            for item in utf8[(question + 1)..<hash].split(separator: UInt8(ascii: "&")) {
                let name = String(decoding: item.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self)
                names.insert(name.removingPercentEncoding ?? name)
            }
            if text.last != UInt8(ascii: "?") && text.last != UInt8(ascii: "&") { text.append(UInt8(ascii: "&")) }
        }
        let itemsStart = text.count
        try appendQuery(names, &text)
        guard text.count > itemsStart else { return url }
        absolute.withUTF8 { utf8 in text.append(contentsOf: utf8[fragment]) }
        return URL(string: String(decoding: text, as: UTF8.self))
    }

    /// Whether `url` starts with `scheme://` and a non-empty host, read from the bytes:
    /// asking the parsed `URL` for its host costs as much as the rest of the composing.
    static func hasSchemeAndHost(_ url: [UInt8]) -> Bool {
        url.withUnsafeBufferPointer { url in
            // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then "://"
            guard let first = url.first, isAlpha(first) else { return false }
            var index = 1
            while index < url.count, isSchemeCharacter(url[index]) { index += 1 }
            guard index + 3 <= url.count, url[index] == UInt8(ascii: ":"), url[index + 1] == UInt8(ascii: "/"),
                url[index + 2] == UInt8(ascii: "/")
            else { return false }
            // authority = [ userinfo "@" ] host [ ":" port ], up to "/", "?" or "#"
            var hostStart = index + 3
            var hostEnd = -1
            var inBrackets = false
            index = hostStart
            scan: while index < url.count {
                switch url[index] {
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): break scan
                case UInt8(ascii: "@"):
                    hostStart = index + 1
                    hostEnd = -1
                case UInt8(ascii: "["): inBrackets = true
                case UInt8(ascii: "]"): inBrackets = false
                case UInt8(ascii: ":") where !inBrackets && hostEnd < 0: hostEnd = index
                default: break
                }
                index += 1
            }
            return (hostEnd < 0 ? index : hostEnd) > hostStart
        }
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isSchemeCharacter(_ byte: UInt8) -> Bool {
        isAlpha(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
