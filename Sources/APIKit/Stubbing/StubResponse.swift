/// What a ``StubTransport`` answers to one request: a response with a body, or a transport
/// error, optionally after a delay.
///
/// ```swift
/// StubResponse.success(status: 200, headers: ["Content-Type": "application/json"], body: #"{"id": 1}"#)
/// StubResponse.success(status: 503)
/// StubResponse.failure(URLError(.notConnectedToInternet))
/// StubResponse.success(body: "slow", delay: 2)   // answers after 2 seconds, unless cancelled
/// ```
public struct StubResponse: Sendable {
    enum Answer: Sendable {
        case http(status: Int, headers: [String: String], body: Data)
        case failure(any Error)
    }

    let answer: Answer
    /// Seconds the stub waits before answering; a request cancelled meanwhile gets no answer.
    public var delay: TimeInterval

    /// A response with a status code, headers and a body.
    ///
    /// - Parameters:
    ///   - status: The HTTP status code; `200` by default.
    ///   - headers: The response headers.
    ///   - body: The body bytes; empty by default.
    ///   - delay: Seconds to wait before answering; `0` by default (still asynchronously).
    /// - Returns: The stubbed response.
    public static func success(
        status: Int = 200,
        headers: [String: String] = [:],
        body: Data = Data(),
        delay: TimeInterval = 0
    ) -> StubResponse {
        StubResponse(answer: .http(status: status, headers: headers, body: body), delay: delay)
    }

    /// A response with a status code, headers and a UTF-8 text body.
    ///
    /// - Parameters:
    ///   - status: The HTTP status code; `200` by default.
    ///   - headers: The response headers.
    ///   - body: The body, sent as UTF-8.
    ///   - delay: Seconds to wait before answering; `0` by default (still asynchronously).
    /// - Returns: The stubbed response.
    public static func success(
        status: Int = 200,
        headers: [String: String] = [:],
        body: String,
        delay: TimeInterval = 0
    ) -> StubResponse {
        success(status: status, headers: headers, body: Data(body.utf8), delay: delay)
    }

    /// A transport failure: the request reaches no server, and APIKit reports
    /// ``RequestError/transportFailed(_:context:)`` carrying `error`.
    ///
    /// - Parameters:
    ///   - error: The error, usually a `URLError` such as `URLError(.timedOut)`.
    ///   - delay: Seconds to wait before failing; `0` by default (still asynchronously).
    /// - Returns: The stubbed failure.
    public static func failure(_ error: any Error, delay: TimeInterval = 0) -> StubResponse {
        StubResponse(answer: .failure(error), delay: delay)
    }
}
