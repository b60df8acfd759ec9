/// A request as a ``RequestLogger`` sees it, just before the transport sends it: after the
/// default headers, options, ``Request/intercept(urlRequest:)`` and every ``Interceptor``.
///
/// Everything in it is already redacted by the logger's ``LogPrivacy``.
///
/// ```swift
/// let logger = RequestLogger { event in
///     if case .request(let request) = event { print(request.curlCommand) }
/// }
/// // curl -X POST 'https://api.example.com/v1/items?key=***' -H 'Authorization: ***' \
/// //   -H 'Content-Type: application/json' --data-binary '@<request body: 18 bytes, not logged>'
/// ```
public struct LoggedRequest: Sendable, Hashable, CustomStringConvertible {
    /// Numbers the requests this process logs, to pair a request with its ``LoggedResponse``.
    public let id: Int
    /// The name of the request type, such as `"UserRequest"`.
    public let requestType: String
    /// The HTTP method.
    public let method: String
    /// The URL, redacted.
    public let url: String
    /// The headers as set on the `URLRequest`, values redacted. `URLSession` may add more
    /// (`Host`, `Content-Length`, `Accept-Encoding`).
    public let headers: [String: String]
    /// The size of the body in bytes: that of `httpBody`, or the length of a streamed body
    /// (a multipart upload, or its `Content-Length`); `nil` when unknown, `0` without a body.
    public let bodySize: Int?
    /// The request as a `curl` command line, shell-quoted and redacted.
    public let curlCommand: String

    /// `→ #id METHOD url (RequestType)`.
    public var description: String {
        "→ #\(id) \(method) \(url) (\(requestType))"
    }

    init(id: Int, urlRequest: URLRequest, requestType: String, privacy: LogPrivacy) {
        self.id = id
        self.requestType = requestType
        self.method = urlRequest.httpMethod ?? "GET"
        self.url = privacy.redact(url: urlRequest.url)
        self.headers = privacy.redact(headers: urlRequest.allHTTPHeaderFields ?? [:])
        bodySize = urlRequest.knownBodyLength.map { Int($0) }
        self.curlCommand = CurlCommand.make(for: urlRequest, privacy: privacy)
    }
}
