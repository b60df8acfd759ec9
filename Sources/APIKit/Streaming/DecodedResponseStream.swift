/// A response body read while it arrives, as an `AsyncSequence` of elements: the chunks of
/// `Data` the transport delivers (a ``ResponseStream``), or what its views decode from them —
/// lines (``lines``), JSON values (``jsonLines(of:decoder:)``) or server-sent events
/// (``serverSentEvents``, or ``reconnectingServerSentEvents(maximumAttempts:initialDelay:)``
/// across connections).
///
/// Made by ``Request/stream(using:options:maximumBufferSize:)``. Each `for try await` loop sends
/// the request through the same stages as ``Request/response(using:options:progress:)``:
/// encoding, default headers and query items, options, the request's `intercept(urlRequest:)`,
/// then the session's chain — its ``RetryPolicy``, its ``CredentialStore`` and its
/// ``Session/interceptors`` — until the response head arrives. Nothing is sent before the loop
/// starts.
///
/// ```swift
/// let stream = CompletionRequest(prompt: "Hello").stream(using: session)
/// for try await event in stream.serverSentEvents {
///     print(event.data)
/// }
/// ```
///
/// - The status is checked before the first element: a response that the request's
///   `intercept(urlResponse:)` rejects (by default, a status outside `200..<300`) throws the
///   same ``RequestError/unacceptableStatusCode(_:body:response:context:)`` that
///   ``Request/response(using:options:progress:)`` would, with the first 1 MiB of its body and the
///   session's ``ErrorBodyDecoder`` applied. The session's interceptors see the head before
///   the body is read, and never the body (``CallResponse/data`` is `nil`).
/// - Until the head is accepted, the chain may send again: a ``RetryPolicy`` retries a
///   transport failure before the head or a retryable status (a `503`), a ``CredentialStore``
///   refreshes and replays after a `401`. Once elements flow, the request is not sent again
///   (except by ``reconnectingServerSentEvents(maximumAttempts:initialDelay:)``).
/// - Breaking out of the loop or cancelling the consuming `Task` cancels the transfer, which
///   closes its connection; a cancelled `next()` throws ``RequestError/cancelled(context:)``.
/// - Chunks wait for the consumer in a buffer of at most `maximumBufferSize` bytes (8 MiB by
///   default). A slower consumer does not make memory grow: when a chunk would pass the limit,
///   the transfer is cancelled and, after the chunks already buffered, the loop throws
///   ``RequestError/transportFailed(_:context:)`` with
///   ``ResponseStreamError/bufferLimitExceeded(limit:)``.
/// - Errors are ``RequestError``s: a transport failure mid-stream is
///   ``RequestError/transportFailed(_:context:)``. An element that does not decode — a line
///   over its length limit, a JSON line of the wrong shape, an oversized event — cancels the
///   transfer; the elements before it are still handed out, then the loop throws
///   ``RequestError/parsingFailed(_:body:response:context:)`` carrying the
///   ``ResponseStreamError`` (its `body` is empty: the stream's bytes are not kept). After an
///   error, the loop ends.
/// - What a loop of a view receives depends on the body's bytes alone, never on how the network
///   split them.
/// - The session's ``RequestLogger`` logs the request when it is sent and the response when the
///   body ends, with the number of bytes streamed.
/// - The ``RequestOptions/resourceTimeout`` does not apply (a stream may last as long as it
///   likes); the idle ``RequestOptions/timeout`` does.
public struct DecodedResponseStream<Element>: AsyncSequence, Sendable {
    /// The request's stages: what every transfer of every iteration is opened with.
    let source: ResponseStreamSource
    /// Makes the reader of one iteration over `source`: the chunks of one transfer, a decoder
    /// over them, or the reconnecting reader of
    /// ``reconnectingServerSentEvents(maximumAttempts:initialDelay:)``.
    let makeReader: @Sendable (ResponseStreamSource) -> any ElementReader<Element>

    /// Starts an iteration; the request is sent on the first call to `next()`.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: makeReader(source))
    }

    /// Reads one iteration of a stream; dropping it cancels the transfer.
    public struct Iterator: AsyncIteratorProtocol {
        private var reader: any ElementReader<Element>

        init(reader: any ElementReader<Element>) {
            self.reader = reader
        }

        /// The next element — a chunk of the body, or a decoded line, value or event — or `nil`
        /// at the end of the body.
        ///
        /// ```swift
        /// var chunks = request.stream(using: session).makeAsyncIterator()
        /// while let chunk = try await chunks.next() { print(chunk.count) }
        /// ```
        ///
        /// - Returns: The element, or `nil` when the body has ended (or an error was thrown before).
        /// - Throws: A ``RequestError``; see ``DecodedResponseStream``.
        public mutating func next() async throws(RequestError) -> Element? {
            try await reader.next(isolation: nil)
        }

        /// The next element — a chunk of the body, or a decoded line, value or event — or `nil`
        /// at the end of the body.
        ///
        /// ```swift
        /// for try await line in request.stream(using: session).lines { print(line) }
        /// ```
        ///
        /// - Parameter actor: The caller's actor.
        /// - Returns: The element, or `nil` when the body has ended (or an error was thrown before).
        /// - Throws: A ``RequestError``; see ``DecodedResponseStream``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Element? {
            try await reader.next(isolation: actor)
        }

        /// The response head — status and headers — before the first element: sends the request
        /// and waits for the head, unless the iteration has done so already (with reconnecting
        /// server-sent events, the head of the connection in use).
        ///
        /// ```swift
        /// var chunks = request.stream(using: session).makeAsyncIterator()
        /// let head = try await chunks.response() as? HTTPURLResponse
        /// print(head?.value(forHTTPHeaderField: "Content-Type") ?? "")
        /// while let chunk = try await chunks.next() { print(chunk.count) }
        /// ```
        ///
        /// - Returns: The head the request's `intercept(urlResponse:)` accepted; `nil` once the
        ///   iteration has ended.
        /// - Throws: A ``RequestError``, as ``next()`` would for its first element.
        public mutating func response() async throws(RequestError) -> URLResponse? {
            try await reader.response()
        }
    }
}

/// What a ``DecodedResponseStream`` iteration reads its elements from. Not `Sendable`: it
/// belongs to one iterator.
protocol ElementReader<Element> {
    associatedtype Element
    /// The next element, or `nil` at the end.
    mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Element?
    /// The response head of the transfer in use, opening it when none is; `nil` at the end.
    mutating func response() async throws(RequestError) -> URLResponse?
}
