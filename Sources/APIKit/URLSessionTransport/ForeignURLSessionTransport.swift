/// A `URLSession` APIKit does not own (a foreign one: the caller's), as a transport: what
/// ``Request/perform(session:completionQueue:completion:)`` sends through.
///
/// ``URLSessionTransport`` is the URLSession transport (``URLSessionTransport/shared`` is what
/// `Session()` uses); this one is the road for a session that APIKit does not own, such as
/// `URLSession.shared` or one with the caller's delegate. Both send a request without progress
/// the same way — a completion-handler task — and differ only where a session's delegate is
/// needed:
///
/// - progress: a session APIKit does not delegate for cannot show it (on Linux, corelibs
///   Foundation tells neither a per-task delegate nor `task.progress` about a task of a session
///   without a delegate), so ``send(_:progress:completion:)`` reports the totals once the
///   transfer has ended: two steps, the body sent then the response received, just before the
///   completion, and none when the transfer fails;
/// - streams and downloads: the whole body arrives at the end, as one chunk (the default
///   ``Transport/stream(_:onEvent:)`` and ``Transport/download(_:to:progress:completion:)``).
struct ForeignURLSessionTransport: Transport {
    /// The caller's session.
    let urlSession: URLSession

    /// Sends `request` with a completion handler's task; with `progress`, reports the transfer's
    /// totals once it has ended: a session APIKit does not delegate for cannot show a transfer
    /// while it runs.
    ///
    /// Just before a response is delivered, `progress` receives two steps, as
    /// ``StubTransport`` reports them: the whole body sent (its known length), then the whole
    /// response body received. A failed or cancelled transfer reports none. For progress while
    /// the transfer runs, send through a ``URLSessionTransport`` (`Session()` does).
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - progress: Receives the two final steps, before `completion`, on the delegate queue.
    ///   - completion: Receives the response and body, or the error; on the delegate queue.
    /// - Returns: The transfer, to cancel it.
    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let completion = TransferProgress.reportingEnd(of: request, to: progress, then: completion)
        // Most requests have no body stream: a data task, without the closures of the upload path.
        guard URLSessionUpload.needsFraming(request) else {
            return urlSession.sendDataTask(request, completion: completion)
        }
        return URLSessionUpload.start(
            request, spoolDirectory: FileManager.default.temporaryDirectory, callbackQueue: urlSession.delegateQueue,
            completion: completion
        ) { [urlSession] request, file, completion in
            if let file {
                return urlSession.uploadTask(
                    with: request, fromFile: file, completionHandler: URLSession.handler(completion))
            }
            return urlSession.dataTask(with: request, completionHandler: URLSession.handler(completion))
        }
    }

}

extension URLSession {
    /// Sends `request`, whose body needs no framing of APIKit's (none, `httpBody`, or a stream
    /// of its own), as a data task with a completion handler: the road of every such request
    /// without progress, through ``ForeignURLSessionTransport`` and ``URLSessionTransport`` alike.
    ///
    /// A completion handler lets corelibs collect the body on its own thread; routed through a
    /// session delegate, each chunk is an operation on the delegate queue, which costs more CPU
    /// per request.
    func sendDataTask(
        _ request: URLRequest,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let task = dataTask(with: request, completionHandler: Self.handler(completion))
        task.resume()
        return task
    }

    /// A completion handler that reports to `completion`: the error (a body cut off named as
    /// on every transport, ``URLError/cutOffBodyNamed(_:)``), the response with its body, or
    /// `URLError(.badServerResponse)` when there is neither.
    static func handler(
        _ completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable (Data?, URLResponse?, (any Error)?) -> Void {
        { data, response, error in
            if let error {
                completion(.failure(URLError.cutOffBodyNamed(error)))
            } else if let response {
                completion(.success(TransportResponse(data: data ?? Data(), urlResponse: response)))
            } else {
                completion(.failure(URLError(.badServerResponse)))
            }
        }
    }
}

extension URLSessionTask: TransportTask {}

extension URLSession {
    /// This session as the transport ``Request/perform(session:completionQueue:completion:)``
    /// sends through: a test hook, so that the suites that cover every transport cover this road
    /// with the whole ``Session`` API. Not API: `@_spi(Testing)`.
    @_spi(Testing) public var asTransport: any Transport { ForeignURLSessionTransport(urlSession: self) }
}
