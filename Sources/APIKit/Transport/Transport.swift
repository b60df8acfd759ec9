/// Sends a `URLRequest` and delivers what came back: the seam between APIKit's pipeline and
/// an HTTP engine.
///
/// ``URLSessionTransport`` is the one every ``Session`` uses unless told otherwise
/// (``URLSessionTransport/shared``); a `URLSession` you pass yourself is a transport too, the
/// road of ``Request/perform(session:completionQueue:completion:)``, as in ishkawa/APIKit.
/// ``StubTransport`` answers from canned responses, for unit tests without a network. Any
/// other HTTP engine plugs in the same way: everything else — encoding, default headers,
/// options, interceptors, status validation, parsing, exactly-once delivery, cancellation —
/// is APIKit's pipeline and does not change with the transport.
///
/// ```swift
/// struct LoggingTransport: Transport {
///     var base: any Transport = URLSessionTransport.shared
///
///     func send(
///         _ request: URLRequest,
///         progress: (@Sendable (TransferProgress) -> Void)?,
///         completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
///     ) -> any TransportTask {
///         print("→", request.httpMethod ?? "GET", request.url?.path ?? "")
///         return base.send(request, progress: progress, completion: completion)
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
    /// Starts sending `request`, reporting the transfer's progress as it goes when `progress` is
    /// given.
    ///
    /// One method for both: a transport that cannot observe its transfers ignores `progress`
    /// (or, like ``StubTransport``, reports the totals once the transfer has ended), and a
    /// transport that wraps another passes it on. With `progress` `nil` nobody is listening: a
    /// transport may take a cheaper road (``URLSessionTransport`` then sends a plain data task).
    ///
    /// ```swift
    /// struct Counting: Transport {
    ///     let base: any Transport
    ///     func send(
    ///         _ request: URLRequest,
    ///         progress: (@Sendable (TransferProgress) -> Void)?,
    ///         completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ///     ) -> any TransportTask {
    ///         base.send(request, progress: progress, completion: completion)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request as APIKit built it: default headers, options and every
    ///     interceptor applied.
    ///   - progress: Receives the progress, any number of times, in order, and never after
    ///     `completion`; `nil` when nobody asked for it.
    ///   - completion: Receives the response or the transport's error, exactly once, never
    ///     before `send` returns. APIKit processes the response where this is called (unless
    ///     the session has a completion queue), so call it from a queue that may run a little
    ///     work, not from a real-time thread.
    /// - Returns: The transfer in flight, to cancel it.
    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask

    /// Sends `request` and returns the response with its whole body, in the awaiting task.
    ///
    /// This is what a call that reads the body whole (``Request/response(using:options:progress:)``
    /// and `perform`) awaits, in the call's task, when it has no progress handler and no
    /// ``RequestOptions/resourceTimeout``; such a call with either takes
    /// ``send(_:progress:completion:)``.
    ///
    /// The default implementation calls ``send(_:progress:completion:)`` and awaits its completion: every
    /// transport has it. A transport that can resume the awaiting task straight from where the
    /// response ends implements it, and saves the thread the completion would run on
    /// (`AsyncHTTPClientTransport` resumes it from its event loop).
    ///
    /// Rules a transport follows:
    ///
    /// - it returns the response and its whole body, or throws the error that stopped the
    ///   transfer (a `URLError` where one fits), as ``send(_:progress:completion:)`` completes;
    /// - cancelling the awaiting task stops the transfer, and the call then throws soon,
    ///   usually `URLError(.cancelled)`; the default implementation throws it at once, without
    ///   waiting for the transport's completion, which it then ignores.
    ///
    /// ```swift
    /// let response = try await transport.send(URLRequest(url: url))
    /// print((response.urlResponse as? HTTPURLResponse)?.statusCode ?? 0, response.data.count)
    /// ```
    ///
    /// - Parameter request: The request as APIKit built it: default headers and options
    ///   applied, and the request's own `intercept(urlRequest:)`.
    /// - Returns: The response and its whole body.
    /// - Throws: The error that stopped the transfer.
    func send(_ request: URLRequest) async throws -> TransportResponse

    /// Starts sending `request` and reports its response as it arrives: the head, then the
    /// body in chunks, then the end.
    ///
    /// The default implementation calls ``send(_:progress:completion:)`` and reports the whole body as
    /// one chunk once it has arrived: every transport can stream, but only one that implements
    /// this reports chunks as they arrive (``URLSessionTransport`` and ``StubTransport`` do;
    /// a `URLSession` given to `perform(session:)` does not, as APIKit is not its delegate).
    ///
    /// Rules a transport follows, which ``ResponseStream`` relies on:
    ///
    /// - `onEvent` is never called before `stream` returns, and never concurrently with itself;
    /// - ``TransportStreamEvent/response(_:)`` comes first, at most once; then
    ///   ``TransportStreamEvent/data(_:)`` any number of times, the chunks in body order; then
    ///   exactly one of ``TransportStreamEvent/finished`` and ``TransportStreamEvent/failed(_:)``
    ///   — the only event when the transfer fails before a response — and nothing after it.
    ///   A stream whose first event is a chunk or ``TransportStreamEvent/finished`` fails the
    ///   call with `URLError(.badServerResponse)`;
    /// - ``TransportTask/cancel()`` stops the transfer; the transport then still ends the events
    ///   with one ``TransportStreamEvent/failed(_:)``, usually `URLError(.cancelled)`, unless
    ///   they had ended already.
    ///
    /// ```swift
    /// let task = transport.stream(URLRequest(url: url)) { event in
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

    /// Starts sending `request` and writes its response's body to the file at `fileURL`, reporting
    /// the bytes written as it goes.
    ///
    /// ``Request/download(to:using:resumable:resumingFrom:options:progress:)`` calls this with a hidden temporary file
    /// next to the destination, so that the final move is a rename on one file system; the file
    /// is APIKit's: it checks the response, reads a rejected response's error body from the
    /// file, and moves or removes the file when the attempt ends.
    ///
    /// The default implementation is built on ``stream(_:onEvent:)``: it creates the file when
    /// the response arrives and writes each chunk to it inside the event callback, before the
    /// next is asked for — a transport whose stream awaits its next chunk only after the
    /// callback returns, or reads ahead of it by a bounded amount (an AsyncHTTPClient
    /// transport), so gets back-pressure, and memory stays flat however large the body. ``URLSessionTransport`` implements this with a
    /// `URLSessionDownloadTask`, whose file is written inside libcurl's callback on Linux (its
    /// data delegate, which ``stream(_:onEvent:)`` uses, has no back-pressure there).
    ///
    /// Rules a transport follows:
    ///
    /// - `download` starts the transfer and returns at once; it never calls `completion` before
    ///   it returns;
    /// - `completion` is called exactly once: with the response once the whole body —
    ///   whatever the status, an error status's body too — is in the file at `fileURL` (created,
    ///   or replaced, even for an empty body), or with the error that stopped the transfer;
    /// - `progress` is called any number of times, in order, never after `completion`, with
    ///   ``TransferProgress/bytesReceived`` the bytes in the file so far and
    ///   ``TransferProgress/expectedBytesToReceive`` the `Content-Length` when known; it is
    ///   `nil` when nobody asked for progress, and a transport may then take a faster road
    ///   (``URLSessionTransport`` uses a download task with a completion handler, whose file is
    ///   written through one open handle rather than reopened for every chunk);
    /// - the transport leaves no file of its own behind once it has called `completion` (a file
    ///   it writes first and moves to `fileURL` when the body is complete, as a download task
    ///   does, is removed before a failure's `completion`); after a failure it may leave a
    ///   partial file at `fileURL`, which APIKit removes;
    /// - a body that ends before its `Content-Length` fails with
    ///   ``DownloadError/incompleteBody(received:expected:)`` when the transport can tell (the
    ///   built-in transports do), rather than its own word for it;
    /// - ``TransportTask/cancel()`` stops the transfer, and once it returns the transport
    ///   writes nothing more to `fileURL`; the transport still calls `completion` once, usually
    ///   with `URLError(.cancelled)`, and APIKit waits for that call — so that no file of the
    ///   transport's is left — before it removes `fileURL` and reports the cancellation.
    ///
    /// ```swift
    /// let file = FileManager.default.temporaryDirectory.appendingPathComponent("body.download")
    /// let task = transport.download(URLRequest(url: url), to: file, progress: { print($0.bytesReceived) }) {
    ///     result in print(result.map { ($0 as? HTTPURLResponse)?.statusCode })
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request as APIKit built it.
    ///   - fileURL: Where to write the body: a file that does not exist yet, in a directory that
    ///     does.
    ///   - progress: Receives the bytes written so far, as above; `nil` when nobody reads them.
    ///   - completion: Receives the response once the body is in the file, or the error.
    /// - Returns: The transfer in flight, to cancel it.
    func download(
        _ request: URLRequest,
        to fileURL: URL,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<URLResponse, any Error>) -> Void
    ) -> any TransportTask
}

extension Transport {
    /// Sends `request` with ``send(_:progress:completion:)`` and awaits its completion.
    ///
    /// Cancelling the awaiting task cancels the transfer and throws `URLError(.cancelled)` at
    /// once; the transport's own completion, when it comes, is ignored. A task cancelled before
    /// the call sends nothing.
    ///
    /// - Parameter request: The request as APIKit built it.
    /// - Returns: The response and its whole body.
    /// - Throws: The transport's error, or `URLError(.cancelled)`.
    public func send(_ request: URLRequest) async throws -> TransportResponse {
        try await TransportCall.send(request, through: self)
    }
}

extension Transport {
    /// Sends `request` with ``send(_:progress:completion:)`` and reports the response, the whole body as
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
        send(request, progress: nil) { result in
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

extension Transport {
    /// Sends `request` with ``stream(_:onEvent:)`` and writes each chunk of the body to
    /// `fileURL` inside the event callback, as ``download(_:to:progress:completion:)``
    /// describes.
    ///
    /// The file is created when the response arrives, with a progress of 0 bytes; each chunk is
    /// written through a `FileHandle` before the callback returns, then reported. A chunk that
    /// cannot be written cancels the transfer, and `completion` receives a
    /// ``DownloadError/fileWriteFailed(_:underlying:)``.
    ///
    /// - Parameters:
    ///   - request: The request as APIKit built it.
    ///   - fileURL: Where to write the body.
    ///   - progress: Receives the bytes written so far after each chunk, when given.
    ///   - completion: Receives the response once the body is in the file, or the error.
    /// - Returns: The transfer in flight, to cancel it.
    public func download(
        _ request: URLRequest,
        to fileURL: URL,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<URLResponse, any Error>) -> Void
    ) -> any TransportTask {
        StreamedDownload.start(request, on: self, to: fileURL, progress: progress, completion: completion)
    }
}
