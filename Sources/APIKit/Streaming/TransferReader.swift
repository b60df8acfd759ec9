/// The chunks of one transfer: the reader of a ``ResponseStream`` iteration, and the base that
/// the decoding readers and ``ReconnectingEventReader`` decode. Dropping it cancels the
/// transfer. Not `Sendable`: it belongs to one iterator.
struct TransferReader: ElementReader {
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

    mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Data? {
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

    mutating func response() async throws(RequestError) -> URLResponse? {
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
