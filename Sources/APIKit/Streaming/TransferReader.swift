/// The chunks of one transfer: the reader of a ``ResponseStream`` iteration, and the base that
/// the decoding readers and ``ReconnectingEventReader`` decode. Dropping it cancels the
/// transfer. Not `Sendable`: it belongs to one iterator.
struct TransferReader: ElementReader {
    private enum Phase {
        case idle
        case streaming(URLResponse, RequestContext)
        /// The body has ended: nothing more is read, but the decoder's last element, made from
        /// the bytes after the last separator, may still fail with this head and context.
        case ended(URLResponse, RequestContext)
        case done
    }

    let connection: StreamConnection
    private var phase = Phase.idle

    init(connection: StreamConnection) {
        self.connection = connection
    }

    mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Data? {
        guard try await open(isolation: actor) != nil, case .streaming(let response, let context) = phase else {
            return nil
        }
        do {
            let chunk = try await connection.nextChunk(context: context)
            if chunk == nil { phase = .ended(response, context) }
            return chunk
        } catch {
            phase = .done
            throw error
        }
    }

    mutating func response() async throws(RequestError) -> URLResponse? {
        try await open(isolation: nil)
    }

    /// Sends the request and waits for the accepted response head, unless that was done;
    /// `nil` once the iteration has ended.
    mutating func open(isolation actor: isolated (any Actor)?) async throws(RequestError) -> URLResponse? {
        switch phase {
        case .done, .ended:
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

    /// Ends the iteration on an element that did not decode: the transfer is cancelled and
    /// the error is the one to throw.
    mutating func decodingFailed(_ error: ResponseStreamError) -> RequestError {
        stop { response, context in .parsingFailed(error, body: Data(), response: response, context: context) }
    }

    /// Ends the iteration on a response head that the caller rejects after the request's
    /// own checks passed: the transfer is cancelled and the error is the one to throw.
    mutating func responseRejected(_ error: any Error) -> RequestError {
        stop { response, context in
            .responseInterceptorFailed(error, body: Data(), response: response, context: context)
        }
    }

    /// Ends the iteration with the error `failure` makes of the transfer's head and context, and
    /// cancels the transfer with it as the reason; the cancellation when nothing was opened.
    private mutating func stop(
        with failure: (URLResponse, RequestContext) -> RequestError
    ) -> RequestError {
        guard let (response, context) = opened else {
            connection.cancel()
            return .cancelled(context: connection.source.context(nil))
        }
        phase = .done
        let error = failure(response, context)
        connection.cancel(because: error)
        return error
    }

    /// The head and context of the transfer, while it streams or once its body has ended.
    private var opened: (URLResponse, RequestContext)? {
        switch phase {
        case .streaming(let response, let context), .ended(let response, let context): (response, context)
        case .idle, .done: nil
        }
    }
}

/// What a ``DecodedResponseStream`` needs from the request it streams, made for the request's
/// type by ``Request/stream(using:options:maximumBufferSize:)``.
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

/// One transfer of a ``DecodedResponseStream``: its buffer once opened, and the cancellation of
/// the transfer when the reader that owns it goes away.
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
    ///
    /// - Parameter reason: The error the reader ends the stream with, when it is not a
    ///   cancellation (``StreamBuffer/cancel(because:)``).
    func cancel(because reason: RequestError? = nil) {
        let buffer = state.withLock { state in
            state.cancelled = true
            return state.buffer
        }
        buffer?.cancel(because: reason)
    }
}
