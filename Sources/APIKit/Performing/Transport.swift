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
///   has already reported the cancellation.
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

/// A transfer started by a ``Transport``.
///
/// APIKit calls ``cancel()`` when the request is cancelled. `URLSessionTask` conforms; a
/// transport built on another HTTP engine returns a handle of its own:
///
/// ```swift
/// struct EngineTask: TransportTask {
///     let transfer: EngineTransfer   // your engine's cancellable, Sendable handle
///
///     func cancel() { transfer.abort() }
/// }
/// ```
public protocol TransportTask: Sendable {
    /// Stops the transfer if it is still running; does nothing otherwise.
    func cancel()
}

/// What a ``Transport`` received: the response and its whole body.
public struct TransportResponse: Sendable {
    /// The body, empty when there was none.
    public var data: Data
    /// The response; an `HTTPURLResponse` for HTTP.
    public var urlResponse: URLResponse

    /// Creates a transport response from a body and the response it came with.
    ///
    /// - Parameters:
    ///   - data: The body, empty when there was none.
    ///   - urlResponse: The response; an `HTTPURLResponse` for HTTP.
    public init(data: Data, urlResponse: URLResponse) {
        self.data = data
        self.urlResponse = urlResponse
    }
}
