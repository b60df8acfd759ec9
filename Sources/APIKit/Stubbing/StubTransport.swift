/// A ``Transport`` that answers from canned responses, without a network: the way to
/// unit-test code that calls an API through APIKit.
///
/// It replaces only the sending: encoding, default headers, options, interceptors, status
/// validation, parsing, cancellation and delivery are the real pipeline, so a test sees what
/// the app will see. The closure receives every request as it would be sent, so a test can
/// also check what was sent.
///
/// ```swift
/// let stub = StubTransport { request in
///     switch request.url?.path {
///     case "/v1/user": .success(body: #"{"id": 1, "name": "Ada"}"#)
///     case "/v1/slow": .success(body: "{}", delay: 5)
///     default: .success(status: 404)
///     }
/// }
/// let session = Session(transport: stub)
/// let user = try await UserRequest(id: 1).response(session: session)
/// ```
///
/// Answers always come asynchronously, on a global queue, after the response's
/// ``StubResponse/delay``. Cancelling the request before then stops the answer, and the
/// request reports ``RequestError/cancelled(context:)``.
public struct StubTransport: Transport {
    private let respond: @Sendable (URLRequest) -> StubResponse

    /// A transport that answers each request with what `respond` returns for it.
    ///
    /// - Parameter respond: Called once per request sent, on a global queue, with the request
    ///   as APIKit built it (headers, body, options and every interceptor applied).
    public init(_ respond: @escaping @Sendable (URLRequest) -> StubResponse) {
        self.respond = respond
    }

    /// A transport that answers every request with `response`.
    ///
    /// - Parameter response: The answer to every request.
    public init(_ response: StubResponse) {
        self.init { _ in response }
    }

    /// Answers `request` from the stub, asynchronously.
    ///
    /// - Parameters:
    ///   - request: The request to answer.
    ///   - completion: Receives the stubbed response or error, once, on a global queue;
    ///     `URLError(.cancelled)` when the task is cancelled first.
    /// - Returns: The stubbed transfer, to cancel it.
    public func send(
        _ request: URLRequest,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let task = StubTask(completion: completion)
        DispatchQueue.global().async { [respond] in
            guard !task.isFinished else { return }
            let stub = respond(request)
            let result = Self.result(of: stub.answer, for: request)
            if stub.delay > 0 {
                DispatchQueue.global().asyncAfter(deadline: .now() + stub.delay) {
                    task.complete(with: result)
                }
            } else {
                task.complete(with: result)
            }
        }
        return task
    }

    private static func result(
        of answer: StubResponse.Answer,
        for request: URLRequest
    ) -> Result<TransportResponse, any Error> {
        switch answer {
        case .http(let status, let headers, let body):
            guard
                let url = request.url,
                let response = HTTPURLResponse(
                    url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
            else {
                return .failure(URLError(.badServerResponse))
            }
            return .success(TransportResponse(data: body, urlResponse: response))
        case .failure(let error):
            return .failure(error)
        }
    }
}

/// One stubbed transfer: completes once, with the answer or with `URLError(.cancelled)`.
private final class StubTask: TransportTask {
    private let completion: Locked<(@Sendable (Result<TransportResponse, any Error>) -> Void)?>

    init(completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void) {
        self.completion = Locked(completion)
    }

    var isFinished: Bool {
        completion.withLock { $0 == nil }
    }

    /// Calls the completion with `result`, unless it was called already.
    func complete(with result: Result<TransportResponse, any Error>) {
        let completion = self.completion.withLock { completion in
            defer { completion = nil }
            return completion
        }
        completion?(result)
    }

    func cancel() {
        guard !isFinished else { return }
        DispatchQueue.global().async { [self] in
            complete(with: .failure(URLError(.cancelled)))
        }
    }
}
