/// What came back for a ``LoggedRequest``, as a ``RequestLogger`` sees it: the status, the
/// time since the request was handed to the transport, the body size and the redacted
/// headers — or, when the transfer failed, which error stopped it.
///
/// Logged when its body has been received (with its head for a body read whole), before
/// interceptors, the status check and the parser run; so `elapsed` is the network time, and a
/// 500 is logged like a 200.
///
/// ```swift
/// let logger = RequestLogger { event in
///     if case .response(let response) = event {
///         print(response.statusCode ?? 0, response.elapsed, response.bodySize ?? 0)
///     }
/// }
/// ```
public struct LoggedResponse: Sendable, Hashable, CustomStringConvertible {
    /// The request this answers, as it was logged: its ``LoggedRequest/id``, type, method and
    /// redacted URL.
    public let request: LoggedRequest
    /// The HTTP status code; `nil` when the transfer failed or the response is not HTTP.
    public let statusCode: Int?
    /// Seconds from handing the request to the transport to its answer.
    public let elapsed: TimeInterval
    /// The size of the body received in bytes; `nil` when the transfer failed, or when the
    /// response was given up before its body was read (a stream's or a download's, for a
    /// retry or a credential replay).
    public let bodySize: Int?
    /// The response headers, values redacted.
    public let headers: [String: String]
    /// The error that stopped the transfer, named without its message or payload (such as
    /// `URLError -1001`); `nil` when a response arrived.
    public let error: String?

    /// `← #id 200 METHOD url (RequestType) 0.123 s, 456 bytes` (`body not read` without a
    /// ``bodySize``), or
    /// `← #id failed METHOD url (RequestType) 0.123 s: URLError -1001`.
    public var description: String {
        let time = String(format: "%.3f s", elapsed)
        let sent = "\(request.method) \(request.url) (\(request.requestType))"
        if let error {
            return "← #\(request.id) failed \(sent) \(time): \(error)"
        }
        let body = bodySize.map { "\($0) bytes" } ?? "body not read"
        return "← #\(request.id) \(statusCode.map(String.init) ?? "-") \(sent) \(time), \(body)"
    }

    /// A response whose body was `bodySize` bytes, read whole or streamed and counted; `nil`
    /// for a body not read.
    init(request: LoggedRequest, response: URLResponse, bodySize: Int?, elapsed: TimeInterval, privacy: LogPrivacy) {
        self.request = request
        self.elapsed = elapsed
        let http = response as? HTTPURLResponse
        statusCode = http?.statusCode
        self.bodySize = bodySize
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            fields["\(name)"] = "\(value)"
        }
        headers = privacy.redact(headers: fields)
        error = nil
    }

    /// A transfer that failed.
    init(request: LoggedRequest, failure: any Error, elapsed: TimeInterval) {
        self.request = request
        self.elapsed = elapsed
        statusCode = nil
        bodySize = nil
        headers = [:]
        error = Self.name(of: failure)
    }

    /// The error's type and code, never its message or user info (which may hold a URL with
    /// its query, or a body).
    static func name(of error: any Error) -> String {
        if let urlError = error as? URLError {
            return "URLError \(urlError.code.rawValue)"
        }
        let nsError = error as NSError
        return "\(nsError.domain) \(nsError.code)"
    }
}
