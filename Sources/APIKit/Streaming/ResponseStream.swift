/// A response body read while it arrives: an `AsyncSequence` of the chunks of `Data` the
/// transport delivers, with views that decode it into lines (``lines``), JSON values
/// (``jsonLines(of:decoder:)``) or server-sent events (``serverSentEvents``).
///
/// Made by ``Request/stream(using:options:maximumBufferSize:)``. Each `for try await` loop sends
/// the request once, through the same preparation as ``Request/response(using:options:progress:)``:
/// encoding, default headers and query items, options, the request's
/// `intercept(urlRequest:)`, the session's credential and interceptors' `adapt`. Nothing is
/// sent before the loop starts.
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
///   session's ``ErrorBodyDecoder`` applied. The session's interceptors' `inspect` runs then
///   too, with that body — or an empty one for an accepted response, whose body is the stream.
/// - Streams are not retried, and a credential is not refreshed and replayed after a `401`:
///   the loop throws the status error instead.
/// - Breaking out of the loop or cancelling the consuming `Task` cancels the transfer, which
///   closes its connection; a cancelled `next()` throws ``RequestError/cancelled(context:)``.
/// - Chunks wait for the consumer in a buffer of at most `maximumBufferSize` bytes (8 MiB by
///   default). A slower consumer does not make memory grow: when a chunk would pass the limit,
///   the transfer is cancelled and, after the chunks already buffered, the loop throws
///   ``RequestError/transportFailed(_:context:)`` with
///   ``ResponseStreamError/bufferLimitExceeded(limit:)``.
/// - Errors are ``RequestError``s: a transport failure mid-stream is
///   ``RequestError/transportFailed(_:context:)``, an element that does not decode
///   ``RequestError/parsingFailed(_:body:response:context:)`` with a ``ResponseStreamError``.
///   After an error, the loop ends.
/// - The session's ``RequestLogger`` logs the request when it is sent and the response when the
///   body ends, with the number of bytes streamed.
/// - The ``RequestOptions/resourceTimeout`` does not apply (a stream may last as long as it
///   likes); the idle ``RequestOptions/timeout`` does.
public struct ResponseStream: AsyncSequence, Sendable {
    /// The buffer limit used when none is given: 8 MiB.
    @usableFromInline static let defaultMaximumBufferSize = 8 << 20

    let source: ResponseStreamSource
    /// The `Last-Event-ID` header to send, for a reconnection of
    /// ``ResponseStream/serverSentEvents(reconnecting:)``; `nil` sends none.
    var lastEventID: String? = nil

    /// Starts an iteration; the request is sent on the first call to `next()`.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(connection: StreamConnection(source: source, lastEventID: lastEventID))
    }

    /// Reads one transfer of a ``ResponseStream``; dropping it cancels the transfer.
    public struct Iterator: AsyncIteratorProtocol {
        private enum Phase {
            case idle
            case streaming(URLResponse, RequestContext)
            case done
        }

        let connection: StreamConnection
        private var phase = Phase.idle

        init(connection: StreamConnection) {
            self.connection = connection
        }

        /// The next chunk of the body, or `nil` at its end.
        ///
        /// ```swift
        /// var chunks = request.stream(using: session).makeAsyncIterator()
        /// while let chunk = try await chunks.next() { print(chunk.count) }
        /// ```
        ///
        /// - Returns: The chunk, or `nil` when the body has ended (or an error was thrown before).
        /// - Throws: A ``RequestError``; see ``ResponseStream``.
        public mutating func next() async throws(RequestError) -> Data? {
            try await nextChunk(isolation: nil)
        }

        /// The next chunk of the body, or `nil` at its end.
        ///
        /// ```swift
        /// for try await chunk in request.stream(using: session) { print(chunk.count) }
        /// ```
        ///
        /// - Parameter actor: The caller's actor.
        /// - Returns: The chunk, or `nil` when the body has ended (or an error was thrown before).
        /// - Throws: A ``RequestError``; see ``ResponseStream``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Data? {
            try await nextChunk(isolation: actor)
        }

        /// The response head — status and headers — before the first chunk: sends the request
        /// and waits for the head, unless the iteration has done so already.
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
        /// - Throws: A ``RequestError``, as ``next()`` would for its first chunk.
        public mutating func response() async throws(RequestError) -> URLResponse? {
            try await open(isolation: nil)
        }

        /// Sends the request and waits for the accepted response head, unless that was done;
        /// `nil` once the iteration has ended.
        mutating func open(isolation actor: isolated (any Actor)?) async throws(RequestError) -> URLResponse? {
            switch phase {
            case .done:
                return nil
            case .idle:
                phase = .done
                let (response, opened) = try await connection.open()
                phase = .streaming(response, opened)
                return response
            case .streaming(let response, _):
                return response
            }
        }

        private mutating func nextChunk(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Data? {
            guard try await open(isolation: actor) != nil, case .streaming(_, let context) = phase else { return nil }
            do {
                let chunk = try await connection.nextChunk(context: context)
                if chunk == nil { phase = .done }
                return chunk
            } catch {
                phase = .done
                throw error
            }
        }

        /// Ends the iteration on an element that did not decode: the transfer is cancelled and
        /// the error is the one to throw.
        mutating func decodingFailed(_ error: ResponseStreamError) -> RequestError {
            connection.cancel()
            guard case .streaming(let response, let context) = phase else {
                return .cancelled(context: connection.source.context(nil))
            }
            phase = .done
            return .parsingFailed(error, body: Data(), response: response, context: context)
        }

        /// Ends the iteration on a response head that the caller rejects after the request's
        /// own checks passed: the transfer is cancelled and the error is the one to throw.
        mutating func responseRejected(_ error: any Error) -> RequestError {
            connection.cancel()
            guard case .streaming(let response, let context) = phase else {
                return .cancelled(context: connection.source.context(nil))
            }
            phase = .done
            return .responseInterceptorFailed(error, body: Data(), response: response, context: context)
        }
    }
}

/// What a ``ResponseStream`` needs from the request it streams, made for the request's type by
/// ``Request/stream(using:options:maximumBufferSize:)``.
struct ResponseStreamSource: Sendable {
    /// Where a reconnection's waits take their time from.
    let time: any TimeSource
    /// Sends the request through the session's chain — with `Last-Event-ID` when a reconnection
    /// passes one — and returns the checked response head and its body's buffer.
    let open: @Sendable (_ lastEventID: String?) async throws(RequestError) -> OpenedStream
    /// The request's context with a URL.
    let context: @Sendable (URL?) -> RequestContext
}

/// A stream whose response head has been received and accepted.
struct OpenedStream: Sendable {
    let response: URLResponse
    let context: RequestContext
    /// The body's chunks, as they arrive.
    let buffer: StreamBuffer
}

/// One transfer of a ``ResponseStream``: its buffer once opened, and the cancellation of the
/// transfer when the iterator that owns it goes away.
final class StreamConnection: Sendable {
    let source: ResponseStreamSource
    private let lastEventID: String?
    private let state = Locked<(buffer: StreamBuffer?, cancelled: Bool)>((nil, false))

    init(source: ResponseStreamSource, lastEventID: String? = nil) {
        self.source = source
        self.lastEventID = lastEventID
    }

    deinit {
        cancel()
    }

    /// Sends the request and waits for the response head, checked.
    func open() async throws(RequestError) -> (URLResponse, RequestContext) {
        guard !Task.isCancelled else { throw .cancelled(context: source.context(nil)) }
        let opened = try await source.open(lastEventID)
        let cancelled = state.withLock { state in
            if !state.cancelled { state.buffer = opened.buffer }
            return state.cancelled
        }
        if cancelled {
            opened.buffer.cancel()
            throw .cancelled(context: opened.context)
        }
        return (opened.response, opened.context)
    }

    /// The next chunk, `nil` at the end.
    func nextChunk(context: RequestContext) async throws(RequestError) -> Data? {
        guard let buffer = state.withLock({ $0.buffer }) else { throw .cancelled(context: context) }
        while true {
            switch await buffer.next() {
            case .data(let chunk):
                return chunk
            case .response:
                continue
            case .end:
                return nil
            case .failure(let error):
                throw .transportFailed(error, context: context)
            case .cancelled:
                throw .cancelled(context: context)
            }
        }
    }

    /// Cancels the transfer.
    func cancel() {
        let buffer = state.withLock { state in
            state.cancelled = true
            return state.buffer
        }
        buffer?.cancel()
    }
}
