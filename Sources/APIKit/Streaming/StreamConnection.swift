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
    func cancel() {
        let buffer = state.withLock { state in
            state.cancelled = true
            return state.buffer
        }
        buffer?.cancel()
    }
}
