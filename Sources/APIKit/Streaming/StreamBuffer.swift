/// The queue between a transport's stream events and the one consumer of a
/// ``DecodedResponseStream``: the transport pushes, the consumer awaits.
///
/// Bounded: the chunks waiting for the consumer may take up to `limit` bytes. A chunk that
/// would pass it ends the stream with ``ResponseStreamError/bufferLimitExceeded(limit:)``
/// after the chunks already queued, and cancels the transfer. It does not try to slow the
/// transfer down: on corelibs, `URLSessionTask.suspend()` does not stop libcurl reading (a data
/// task suspended after its first chunk goes on delivering the body; see the Linux notes
/// article).
///
/// Exactly once: the stream ends with the first of the transport's end, the buffer limit, a
/// chunk before the response head (`URLError(.badServerResponse)`: the head is always handed
/// out first, so the order would be lost) and a cancellation; anything the transport reports
/// after that is dropped. The waiting consumer's continuation is resumed once, then forgotten.
final class StreamBuffer: Sendable {
    /// What the consumer receives next.
    enum Item: Sendable {
        case response(URLResponse)
        case data(Data)
        /// The body ended normally.
        case end
        /// The transfer failed, or the buffer limit was passed.
        case failure(any Error)
        /// ``cancel()`` was called.
        case cancelled
    }

    private struct State {
        var response: URLResponse?
        /// Whether the transport has reported the response head.
        var headArrived = false
        var chunks = FIFO<Data>()
        var bytes = 0
        var end: Item?
        var waiter: CheckedContinuation<Item, Never>?
        var task: (any TransportTask)?

        /// The next item for the consumer, if there is one yet.
        mutating func take() -> Item? {
            if let response {
                self.response = nil
                return .response(response)
            }
            // let go of at once: a consumer that never quite catches up never drains the queue
            if let chunk = chunks.removeFirst() {
                bytes -= chunk.count
                return .data(chunk)
            }
            return end
        }
    }

    /// The most bytes of chunks kept for the consumer.
    let limit: Int
    /// Told why the stream ended when the buffer or its reader ended it — the limit, a chunk
    /// before the head, an element that did not decode — before the transfer is cancelled: the
    /// transport's end that follows, a cancellation, is not the call's outcome.
    private let tap: BodyTap?
    private let state = Locked(State())

    init(limit: Int, tap: BodyTap? = nil) {
        self.limit = limit
        self.tap = tap
    }

    /// Records the transfer, to cancel it; cancels it at once when the stream was cancelled
    /// (or had ended) before.
    func attach(_ task: any TransportTask) {
        let ended = state.withLock { state -> Bool in
            guard state.end == nil else { return true }
            state.task = task
            return false
        }
        if ended { task.cancel() }
    }

    /// Takes one event from the transport.
    func receive(_ event: TransportStreamEvent) {
        var cancelling: (any TransportTask)?
        // the buffer's own end of the stream, which cancels the transfer
        var failure: (any Error)?
        let resume = state.withLock { state -> (CheckedContinuation<Item, Never>, Item)? in
            guard state.end == nil else { return nil }
            switch event {
            case .response(let response):
                state.response = response
                state.headArrived = true
            case .data where !state.headArrived:
                failure = URLError(.badServerResponse)
            case .data(let chunk):
                if state.waiter == nil, state.bytes + chunk.count > limit {
                    failure = ResponseStreamError.bufferLimitExceeded(limit: limit)
                } else {
                    state.chunks.append(chunk)
                    state.bytes += chunk.count
                }
            case .finished:
                state.end = .end
                state.task = nil
            case .failed(let error):
                state.end = .failure(error)
                state.task = nil
            }
            if let failure {
                state.end = .failure(failure)
                cancelling = state.task
                state.task = nil
            }
            guard let waiter = state.waiter, let item = state.take() else { return nil }
            state.waiter = nil
            return (waiter, item)
        }
        if let failure { tap?.ended(.failure(failure)) }
        cancelling?.cancel()
        if let (waiter, item) = resume { waiter.resume(returning: item) }
    }

    /// The next item; cancelling the calling task cancels the stream.
    func next() async -> Item {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Item, Never>) in
                let item = state.withLock { state -> Item? in
                    if let item = state.take() { return item }
                    state.waiter = continuation
                    return nil
                }
                if let item { continuation.resume(returning: item) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Ends the stream with ``Item/cancelled`` — the queued chunks dropped — unless it has
    /// ended already, and cancels the transfer.
    ///
    /// - Parameter reason: The error the reader ends the stream with (an element that did not
    ///   decode, a rejected head), when it is not a cancellation: the call's outcome.
    func cancel(because reason: RequestError? = nil) {
        if let reason { tap?.ended(.failure(reason)) }
        let (task, waiter) = state.withLock { state -> ((any TransportTask)?, CheckedContinuation<Item, Never>?) in
            let taken = (state.task, state.waiter)
            state.task = nil
            state.waiter = nil
            if state.end == nil {
                state.end = .cancelled
                state.response = nil
                state.chunks.removeAll()
                state.bytes = 0
            }
            return taken
        }
        task?.cancel()
        waiter?.resume(returning: .cancelled)
    }
}
