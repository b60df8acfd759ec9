/// What a ``StubTransport`` answers to one request: a response with a body, or a transport
/// error, optionally after a delay.
///
/// ```swift
/// let user = StubResponse.success(status: 200, headers: ["Content-Type": "application/json"], body: #"{"id": 1}"#)
/// let unavailable = StubResponse.success(status: 503)
/// let offline = StubResponse.failure(URLError(.notConnectedToInternet))
/// let slow = StubResponse.success(body: "slow", delay: 2)   // answers after 2 seconds, unless cancelled
/// let events = StubResponse.stream(chunks: ["data: 1\n\n", "data: 2\n\n"], interval: 0.1)   // a body in two chunks
/// ```
public struct StubResponse: Sendable {
    enum Answer: Sendable {
        case http(status: Int, headers: [String: String], body: Data)
        case chunks(status: Int, headers: [String: String], chunks: [Data], interval: TimeInterval)
        case failure(any Error)
    }

    let answer: Answer
    /// Seconds the stub waits before answering; a request cancelled meanwhile gets no answer.
    let delay: TimeInterval

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

    /// A response whose body arrives in chunks, `interval` seconds apart: what a
    /// ``ResponseStream`` reads chunk by chunk (``StubTransport/stream(_:onEvent:)``), and what
    /// ``StubTransport/send(_:progress:completion:)`` answers joined, once the last chunk is due.
    ///
    /// ```swift
    /// let stub = StubTransport { _ in
    ///     .stream(headers: ["Content-Type": "text/event-stream"], chunks: ["data: hel", "lo\n\n"], interval: 0.05)
    /// }
    /// for try await event in EventsRequest().stream(using: Session(transport: stub)).serverSentEvents {
    ///     print(event.data)   // hello
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - status: The HTTP status code; `200` by default.
    ///   - headers: The response headers.
    ///   - chunks: The body, chunk by chunk, each sent as UTF-8.
    ///   - interval: Seconds between the response and the first chunk, and between chunks;
    ///     `0` by default (still asynchronously).
    ///   - delay: Seconds to wait before the response; `0` by default.
    /// - Returns: The stubbed response.
    public static func stream(
        status: Int = 200,
        headers: [String: String] = [:],
        chunks: [String],
        interval: TimeInterval = 0,
        delay: TimeInterval = 0
    ) -> StubResponse {
        stream(status: status, headers: headers, chunks: chunks.map { Data($0.utf8) }, interval: interval, delay: delay)
    }

    /// A response whose body arrives in chunks of bytes, `interval` seconds apart: the form of
    /// the method above for bodies that are not text, or chunks that split a character.
    ///
    /// ```swift
    /// let bom = StubResponse.stream(chunks: [Data([0xEF, 0xBB]), Data([0xBF])], interval: 0.01)
    /// ```
    ///
    /// - Parameters:
    ///   - status: The HTTP status code; `200` by default.
    ///   - headers: The response headers.
    ///   - chunks: The body, chunk by chunk.
    ///   - interval: Seconds between the response and the first chunk, and between chunks;
    ///     `0` by default (still asynchronously).
    ///   - delay: Seconds to wait before the response; `0` by default.
    /// - Returns: The stubbed response.
    public static func stream(
        status: Int = 200,
        headers: [String: String] = [:],
        chunks: [Data],
        interval: TimeInterval = 0,
        delay: TimeInterval = 0
    ) -> StubResponse {
        StubResponse(
            answer: .chunks(status: status, headers: headers, chunks: chunks, interval: max(0, interval)), delay: delay)
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
