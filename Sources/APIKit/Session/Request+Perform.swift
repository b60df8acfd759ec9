extension Request {
    /// Builds, sends and parses the request, and calls `completion` with the outcome.
    ///
    /// The stages run in this order: the configuration is encoded,
    /// ``intercept(urlRequest:)`` adapts the `URLRequest`, the request is sent with
    /// `session`, ``intercept(urlResponse:)`` checks the response (by default rejecting a
    /// status code outside `200..<300` before parsing), the ``parser`` reads the body and
    /// ``response(from:urlResponse:)`` produces the ``Response``. The request type's
    /// ``options`` are applied before ``intercept(urlRequest:)``.
    ///
    /// This is ``perform(using:options:progress:completion:)`` through
    /// `Session(transport: session, completionQueue: completionQueue)`'s pipeline, with the
    /// caller's `URLSession` as the transport. Use a ``Session`` for default headers,
    /// interceptors, retries, per-call options and progress, streams and downloads, or another
    /// transport: `Session()` sends through ``URLSessionTransport/shared``, which watches its
    /// transfers; a `URLSession` sends a request without progress in exactly the same way.
    ///
    /// ```swift
    /// request.perform { result in
    ///     switch result {
    ///     case .success(let response): print(response)
    ///     case .failure(let error): print(error)   // RequestError
    ///     }
    /// }
    /// ```
    ///
    /// `completion` is called exactly once for every outcome — success, each failure and
    /// cancellation — and always asynchronously, never on the calling thread. The response
    /// interceptor, the parser and `response(from:urlResponse:)` run just before it, in the
    /// same place:
    ///
    /// - by default (`completionQueue: nil`), on the session's delegate queue, where
    ///   `URLSession` delivers the response: the call's task continues there when the data
    ///   task's completion arrives, one operation on that queue. URLSession services that queue
    ///   itself, so a command-line program that waits for the result needs no running main
    ///   queue. The queue is serial: hand long work on to another queue;
    /// - with a `completionQueue`, on that queue; pass `.main` to update a user interface.
    ///
    /// - Parameters:
    ///   - session: The `URLSession` that sends the request; `URLSession.shared` by default.
    ///   - completionQueue: Where the response is processed and `completion` is called;
    ///     `nil` for the session's delegate queue.
    ///   - completion: Receives the response or a ``RequestError`` naming the stage that failed.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func perform(
        session: URLSession = .shared,
        completionQueue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<Response, RequestError>) -> Void
    ) -> RequestHandle {
        var performing = Session(
            transport: ForeignURLSessionTransport(urlSession: session), completionQueue: completionQueue)
        performing.completionOperationQueue = completionQueue == nil ? session.delegateQueue : nil
        return performing.perform(self, completion: completion)
    }

    /// Builds, sends and parses the request through `session`, and calls `completion` with the
    /// outcome: the completion-handler form of ``response(using:options:progress:)``.
    ///
    /// The same pipeline and guarantees: `completion` is called exactly once for every outcome
    /// — success, each failure and cancellation — and never on the calling thread: on the
    /// session's ``Session/completionQueue`` when it has one, else on a global queue. `progress`
    /// is called as for ``response(using:options:progress:)``, every step before `completion`; after
    /// ``RequestHandle/cancel()`` no further step is passed on.
    ///
    /// ```swift
    /// let api = Session(retryPolicy: RetryPolicy())
    /// let handle = UserRequest(id: 1).perform(using: api, options: RequestOptions(timeout: 5)) { result in
    ///     print(result)   // Result<UserRequest.Response, RequestError>
    /// }
    /// handle.cancel()     // → .failure(.cancelled), unless the response was already being processed
    /// ```
    ///
    /// - Parameters:
    ///   - session: The session that performs the request.
    ///   - options: Options for this call only; they win over the request type's ``options``
    ///     and the session's, member by member.
    ///   - progress: Receives the bytes sent and received so far, each time they change;
    ///     `nil` (the default) for none.
    ///   - completion: Receives the response or a ``RequestError`` naming the stage that failed.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func perform(
        using session: Session,
        options: RequestOptions? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<Response, RequestError>) -> Void
    ) -> RequestHandle {
        session.perform(self, options: options, progress: progress, completion: completion)
    }

    /// Runs the response stages on the body and the head that came back through the chain:
    /// `intercept(urlResponse:)`, the parser, `response(from:urlResponse:)`.
    func outcome(
        data body: Data,
        urlResponse: URLResponse,
        context: @autoclosure () -> RequestContext
    ) -> Result<Response, RequestError> {
        do {
            try intercept(urlResponse: urlResponse)
        } catch {
            return .failure(Self.responseValidationError(error, body: body, response: urlResponse, context: context()))
        }
        let object: DataParser.Object
        do {
            object = try parser.parse(data: body)
        } catch {
            return .failure(.parsingFailed(error, body: body, response: urlResponse, context: context()))
        }
        do {
            return .success(try response(from: object, urlResponse: urlResponse))
        } catch {
            return .failure(.responseConversionFailed(error, response: urlResponse, context: context()))
        }
    }

    /// The error for a response hook that threw: an ``UnacceptableStatusCode`` on an HTTP
    /// response is a status-code error, anything else a response-interceptor failure.
    static func responseValidationError(
        _ error: any Error,
        body: Data,
        response: URLResponse,
        context: RequestContext
    ) -> RequestError {
        if let status = error as? UnacceptableStatusCode, let http = response as? HTTPURLResponse {
            return .unacceptableStatusCode(status.statusCode, body: body, response: http, context: context)
        }
        return .responseInterceptorFailed(error, body: body, response: response, context: context)
    }
}
