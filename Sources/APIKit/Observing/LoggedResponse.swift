/// The line a ``RequestLogger`` writes for what came back for a ``LoggedRequest``: the status,
/// the time since the request was handed to the transport and the body size — or, when the
/// transfer failed, which error stopped it.
///
/// Written when its body has been received (with its head for a body read whole), before
/// interceptors, the status check and the parser run; so the time is the network time, and a
/// 500 is written like a 200.
enum LoggedResponse {
    /// `← #id 200 METHOD url (RequestType) 0.123 s, 456 bytes`, or `body not read` for a
    /// `bodySize` of `nil` (a response given up before its body was read: a stream's or a
    /// download's, for a retry or a credential replay). `-` stands for the status of a
    /// response that is not HTTP.
    static func line(for request: LoggedRequest, response: URLResponse, bodySize: Int?, elapsed: TimeInterval)
        -> String
    {
        let status = (response as? HTTPURLResponse).map { String($0.statusCode) } ?? "-"
        let body = bodySize.map { "\($0) bytes" } ?? "body not read"
        return "← #\(request.id) \(status) \(request.summary) \(seconds(elapsed)), \(body)"
    }

    /// `← #id failed METHOD url (RequestType) 0.123 s: URLError -1001`.
    static func line(for request: LoggedRequest, failure: any Error, elapsed: TimeInterval) -> String {
        "← #\(request.id) failed \(request.summary) \(seconds(elapsed)): \(name(of: failure))"
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

    private static func seconds(_ elapsed: TimeInterval) -> String {
        String(format: "%.3f s", elapsed)
    }
}
