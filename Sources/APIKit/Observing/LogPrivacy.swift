/// What the lines of a ``RequestLogger`` may show of a request — its URL, and its headers and
/// body in the `curl` command: by default nothing secret — no header value outside a short list
/// of harmless headers, no query value, no body byte. No line shows a response's headers or body.
///
/// Some headers are always redacted, whatever the other settings: `Authorization`, `Cookie`,
/// `Set-Cookie`, `Proxy-Authorization` and the names you add to
/// ``sensitiveHeaders``. Names compare case-insensitively. A redacted value reads `***`.
///
/// ```swift
/// // show header values (except the sensitive ones), query values and text bodies
/// var privacy = LogPrivacy(revealsHeaderValues: true, revealsQueryValues: true, revealsBodies: true)
/// privacy.sensitiveHeaders.insert("X-Api-Key")
/// let session = Session(logger: RequestLogger(privacy: privacy) { line in print(line) })
/// ```
public struct LogPrivacy: Sendable, Hashable {
    /// Headers whose values are never logged: `Authorization`, `Cookie`, `Proxy-Authorization`
    /// and `Set-Cookie`.
    static let alwaysRedactedHeaders: Set<String> = [
        "Authorization", "Cookie", "Proxy-Authorization", "Set-Cookie",
    ]

    /// Headers whose values are shown by default: they describe the body, not the user
    /// (`Accept`, `Accept-Encoding`, `Accept-Language`, `Content-Encoding`, `Content-Length`,
    /// `Content-Type`).
    @usableFromInline static let harmlessHeaders: Set<String> = [
        "Accept", "Accept-Encoding", "Accept-Language", "Content-Encoding", "Content-Length", "Content-Type",
    ]

    /// More headers whose values are never logged, such as `X-Api-Key`; compared
    /// case-insensitively. They win over ``revealsHeaderValues`` and ``revealedHeaders``.
    public var sensitiveHeaders: Set<String>
    /// Headers whose values are shown even when ``revealsHeaderValues`` is `false`; by default
    /// those that describe the body, not the user: `Accept`, `Accept-Encoding`,
    /// `Accept-Language`, `Content-Encoding`, `Content-Length` and `Content-Type`.
    public var revealedHeaders: Set<String>
    /// Whether the values of all headers are shown, except the always-redacted and
    /// ``sensitiveHeaders`` ones; `false` by default (each value reads `***`).
    public var revealsHeaderValues: Bool
    /// Whether query values are shown; `false` by default (`?q=***`, and `?***` for an item
    /// without `=`, which may be a token). User name and password in a URL are never shown.
    public var revealsQueryValues: Bool
    /// Whether a request body that is UTF-8 text appears in the curl command; `false` by
    /// default (a placeholder with its size). A streamed body (a multipart upload from disk)
    /// never does: reading it would consume it.
    public var revealsBodies: Bool

    /// Creates a privacy setting; the defaults show no secret: header values other than the
    /// harmless ones, query values and bodies are all redacted.
    ///
    /// ```swift
    /// let privacy = LogPrivacy(sensitiveHeaders: ["X-Api-Key"], revealsQueryValues: true)
    /// ```
    ///
    /// - Parameters:
    ///   - sensitiveHeaders: More headers never to show, such as `X-Api-Key`.
    ///   - revealedHeaders: Headers whose values are shown anyway; by default `Accept`,
    ///     `Accept-Encoding`, `Accept-Language`, `Content-Encoding`, `Content-Length` and
    ///     `Content-Type`.
    ///   - revealsHeaderValues: Show all header values but the sensitive ones.
    ///   - revealsQueryValues: Show query values.
    ///   - revealsBodies: Show UTF-8 text request bodies in the curl command.
    public init(
        sensitiveHeaders: Set<String> = [],
        revealedHeaders: Set<String> = LogPrivacy.harmlessHeaders,
        revealsHeaderValues: Bool = false,
        revealsQueryValues: Bool = false,
        revealsBodies: Bool = false
    ) {
        self.sensitiveHeaders = sensitiveHeaders
        self.revealedHeaders = revealedHeaders
        self.revealsHeaderValues = revealsHeaderValues
        self.revealsQueryValues = revealsQueryValues
        self.revealsBodies = revealsBodies
    }

    /// The text that replaces a value that is not shown.
    static let redacted = "***"

    /// Whether the value of the header `name` may be shown.
    func reveals(header name: String) -> Bool {
        let matches = { (names: Set<String>) in names.contains { HTTPSyntax.namesEqual($0, name) } }
        if matches(Self.alwaysRedactedHeaders) || matches(sensitiveHeaders) { return false }
        return revealsHeaderValues || matches(revealedHeaders)
    }

    /// `headers` with the values that may not be shown replaced by `***`.
    func redact(headers: [String: String]) -> [String: String] {
        var shown: [String: String] = [:]
        for (name, value) in headers {
            shown[name] = reveals(header: name) ? value : Self.redacted
        }
        return shown
    }

    /// The URL as it may be shown: never user name and password or fragment; query values
    /// replaced by `***` unless ``revealsQueryValues`` (an item without `=` whole: it may be a
    /// token).
    func redact(url: URL?) -> String {
        guard let url else { return "<no URL>" }
        guard revealsQueryValues else { return RequestContext.redacted(url) }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return "<unprintable URL>"
        }
        components.user = nil
        components.password = nil
        components.fragment = nil
        return components.string ?? "<unprintable URL>"
    }
}
