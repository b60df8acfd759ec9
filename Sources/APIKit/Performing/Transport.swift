/// Sends a `URLRequest` and delivers what came back: the seam between APIKit's pipeline and
/// an HTTP engine.
///
/// `URLSession` is a `Transport`, and the one every ``Session`` uses unless told otherwise.
/// ``StubTransport`` answers from canned responses, for unit tests without a network. Any
/// other HTTP engine plugs in the same way: everything else — encoding, default headers,
/// options, interceptors, status validation, parsing, exactly-once delivery, cancellation —
/// is APIKit's pipeline and does not change with the transport.
///
/// ```swift
/// struct LoggingTransport: Transport {
///     var base: any Transport = URLSession.shared
///
///     func send(
///         _ request: URLRequest,
///         completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
///     ) -> any TransportTask {
///         print("→", request.httpMethod ?? "GET", request.url?.path ?? "")
///         return base.send(request, completion: completion)
///     }
/// }
/// ```
///
/// Rules a transport follows:
///
/// - `send` starts the transfer and returns at once; it never calls `completion` before it
///   returns (call it from another queue);
/// - `completion` is called exactly once: with the response and the whole body, or with
///   the error that stopped the transfer (a `URLError` where one fits);
/// - ``TransportTask/cancel()`` stops the transfer; the transport then still calls
///   `completion` once, usually with `URLError(.cancelled)`, which APIKit ignores because it
///   has already reported the cancellation;
/// - the transport frames the body: `request.requestBody` (``RequestBody``) gives its length,
///   sent as `Content-Length` — a body of known length is never sent chunked — and its bytes,
///   in memory, from a file, or as ``RequestBody/chunks(size:)``. The request carries no
///   `Content-Length` or `Transfer-Encoding` of its own: APIKit rejects them
///   (``BuildError/framingHeader(_:source:)``).
public protocol Transport: Sendable {
    /// Starts sending `request`.
    ///
    /// - Parameters:
    ///   - request: The request as APIKit built it: default headers, options and every
    ///     interceptor applied.
    ///   - completion: Receives the response or the transport's error, exactly once, never
    ///     before `send` returns. APIKit processes the response where this is called (unless
    ///     the session has a completion queue), so call it from a queue that may run a little
    ///     work, not from a real-time thread.
    /// - Returns: The transfer in flight, to cancel it.
    func send(
        _ request: URLRequest,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask

    /// Starts sending `request`, reporting the transfer's progress as it goes.
    ///
    /// The default implementation calls ``send(_:completion:)`` and reports no progress: a
    /// transport that can observe its transfers implements this (``URLSessionTransport``
    /// and ``StubTransport`` do; `URLSession` itself does not, as `URLSession.shared` has no
    /// delegate to learn about progress from).
    ///
    /// - Parameters:
    ///   - request: The request as APIKit built it.
    ///   - progress: Receives the progress, any number of times, in order, and never after
    ///     `completion`.
    ///   - completion: As for ``send(_:completion:)``.
    /// - Returns: The transfer in flight, to cancel it.
    func send(
        _ request: URLRequest,
        progress: @escaping ProgressHandler,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask

    /// Starts sending `request` and reports its response as it arrives: the head, then the
    /// body in chunks, then the end.
    ///
    /// The default implementation calls ``send(_:completion:)`` and reports the whole body as
    /// one chunk once it has arrived: every transport can stream, but only one that implements
    /// this reports chunks as they arrive (``URLSessionTransport`` and ``StubTransport`` do;
    /// `URLSession` itself does not, as it has no delegate to learn about chunks from).
    ///
    /// Rules a transport follows, which ``ResponseStream`` relies on:
    ///
    /// - `onEvent` is never called before `stream` returns, and never concurrently with itself;
    /// - ``TransportStreamEvent/response(_:)`` comes first, at most once; then
    ///   ``TransportStreamEvent/data(_:)`` any number of times, the chunks in body order; then
    ///   exactly one of ``TransportStreamEvent/finished`` and ``TransportStreamEvent/failed(_:)``
    ///   — the only event when the transfer fails before a response — and nothing after it;
    /// - ``TransportTask/cancel()`` stops the transfer; the transport then still ends the events
    ///   with one ``TransportStreamEvent/failed(_:)``, usually `URLError(.cancelled)`, unless
    ///   they had ended already.
    ///
    /// ```swift
    /// let task = transport.stream(request) { event in
    ///     switch event {
    ///     case .response(let response): print((response as? HTTPURLResponse)?.statusCode ?? 0)
    ///     case .data(let chunk): print(chunk.count, "bytes")
    ///     case .finished: print("done")
    ///     case .failed(let error): print(error)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request as APIKit built it.
    ///   - onEvent: Receives the events, in the order above.
    /// - Returns: The transfer in flight, to cancel it.
    func stream(
        _ request: URLRequest,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> any TransportTask
}

extension Transport {
    /// Sends `request` with ``send(_:completion:)``, without reporting progress.
    ///
    /// - Parameters:
    ///   - request: The request as APIKit built it.
    ///   - progress: Never called.
    ///   - completion: As for ``send(_:completion:)``.
    /// - Returns: The transfer in flight, to cancel it.
    public func send(
        _ request: URLRequest,
        progress: @escaping ProgressHandler,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        send(request, completion: completion)
    }
}

extension Transport {
    /// Sends `request` with ``send(_:completion:)`` and reports the response, the whole body as
    /// one chunk (none when it is empty), and the end.
    ///
    /// - Parameters:
    ///   - request: The request as APIKit built it.
    ///   - onEvent: Receives the events, as ``stream(_:onEvent:)`` describes.
    /// - Returns: The transfer in flight, to cancel it.
    public func stream(
        _ request: URLRequest,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> any TransportTask {
        send(request) { result in
            switch result {
            case .success(let response):
                onEvent(.response(response.urlResponse))
                if !response.data.isEmpty { onEvent(.data(response.data)) }
                onEvent(.finished)
            case .failure(let error):
                onEvent(.failed(error))
            }
        }
    }
}
