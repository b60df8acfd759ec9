/// A request as a ``RequestLogger`` writes it, just before the transport sends it: after the
/// default headers, options, ``Request/intercept(urlRequest:)`` and every ``Interceptor``,
/// numbered and redacted by the logger's ``LogPrivacy``.
struct LoggedRequest: Sendable {
    /// Numbers the requests this process logs, to pair a request with its response line.
    let id: Int
    /// `METHOD url (RequestType)`, the URL redacted: how the response line names its request.
    let summary: String
    /// The request as a `curl` command line, shell-quoted and redacted.
    let curlCommand: String

    init(id: Int, urlRequest: URLRequest, requestType: String, privacy: LogPrivacy) {
        self.id = id
        summary = "\(urlRequest.httpMethod ?? "GET") \(privacy.redact(url: urlRequest.url)) (\(requestType))"
        curlCommand = CurlCommand.make(for: urlRequest, privacy: privacy)
    }

    /// `→ #id METHOD url (RequestType)`, then the curl command on a line of its own.
    var line: String {
        "→ #\(id) \(summary)\n\(curlCommand)"
    }
}
