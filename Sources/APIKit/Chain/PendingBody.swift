/// The body of a stream or a download, still arriving when the chain returns its
/// ``CallResponse``: what the call reads after the response stages.
///
/// A response the chain drops (a retry, a replay) drops its body: when the last reference
/// goes, a stream's transfer is cancelled and a download's temporary file removed, unless
/// the call took the body (``take()``).
final class PendingBody: Sendable {
    enum Kind: Sendable {
        /// A stream's chunks, as the transport delivers them.
        case stream(StreamBuffer)
        /// A download's complete file.
        case download(any DownloadAttempt, bytes: Int64)
    }

    /// The most bytes of a rejected response's body read for its ``RequestError``, a stream's
    /// or a download's alike: 1 MiB.
    static let maximumErrorBodySize = 1 << 20

    let kind: Kind
    /// Tells ``CallResponse/onBodyEnd(_:)`` when the body has ended.
    let tap: BodyTap
    private let taken = Locked(false)

    init(_ kind: Kind, tap: BodyTap) {
        self.kind = kind
        self.tap = tap
    }

    deinit {
        guard !taken.withLock({ $0 }) else { return }
        switch kind {
        case .stream(let buffer): buffer.cancel()
        case .download(let attempt, _): attempt.discard()
        }
    }

    /// Marks the body as the call's: it is no longer dropped with the last reference.
    func take() {
        taken.withLock { $0 = true }
    }

    /// The first ``maximumErrorBodySize`` bytes of a rejected response's body, for its error: a
    /// stream's read from its buffer (the transfer cancelled when there is more, whatever arrived
    /// when it fails), a download's from its file.
    func errorBody() async -> Data {
        switch kind {
        case .stream(let buffer): await Self.errorBody(from: buffer)
        case .download(let attempt, _): attempt.errorBody()
        }
    }

    /// The first ``maximumErrorBodySize`` bytes `buffer` yields; cancels the transfer once they
    /// are read or the body has ended.
    private static func errorBody(from buffer: StreamBuffer) async -> Data {
        var body = Data()
        while true {
            switch await buffer.next() {
            case .data(let chunk):
                let room = maximumErrorBodySize - body.count
                body.append(chunk.prefix(room))
                if chunk.count > room {
                    buffer.cancel()
                    return body
                }
            case .response:
                continue
            case .end, .failure, .cancelled:
                buffer.cancel()
                return body
            }
        }
    }
}

/// Counts a body's bytes as the transport delivers them and tells its observers, once, when
/// the body has ended: the transport's event handler holds it for as long as the transfer runs.
final class BodyTap: Sendable {
    private struct State {
        var received = 0
        var end: Result<Int, any Error>?
        var observers: [@Sendable (Result<Int, any Error>) -> Void] = []
    }

    private let state = Locked(State())

    /// Takes note of one transport event of a stream.
    func observe(_ event: TransportStreamEvent) {
        switch event {
        case .response:
            break
        case .data(let chunk):
            state.withLock { $0.received += chunk.count }
        case .finished:
            ended(.success(state.withLock { $0.received }))
        case .failed(let error):
            ended(.failure(error))
        }
    }

    /// Records the end of the body and tells the observers; later ends are ignored.
    func ended(_ result: Result<Int, any Error>) {
        let observers = state.withLock { state -> [@Sendable (Result<Int, any Error>) -> Void] in
            guard state.end == nil else { return [] }
            state.end = result
            defer { state.observers = [] }
            return state.observers
        }
        for observer in observers { observer(result) }
    }

    /// Calls `handler` when the body ends, or at once when it has.
    func onEnd(_ handler: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        let end = state.withLock { state -> Result<Int, any Error>? in
            if state.end == nil { state.observers.append(handler) }
            return state.end
        }
        if let end { handler(end) }
    }
}
