/// The elements of one transfer, decoded chunk by chunk: the reader of
/// ``DecodedResponseStream/lines``, ``DecodedResponseStream/jsonLines(of:decoder:)`` and
/// ``DecodedResponseStream/serverSentEvents``.
struct DecodingReader<Element>: ElementReader {
    private var base: TransferReader
    private let decoder: ElementDecoder<Element>
    private var pending = PendingElements<Element>()

    init(base: TransferReader, decoder: ElementDecoder<Element>) {
        self.base = base
        self.decoder = decoder
    }

    mutating func response() async throws(RequestError) -> URLResponse? {
        try await base.response()
    }

    mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Element? {
        while true {
            if let element = try pending.next() { return element }
            if pending.isEnded { return nil }
            let chunk: Data?
            do {
                chunk = try await base.next(isolation: actor)
            } catch {
                pending.isEnded = true
                throw error
            }
            var decoded: [Element] = []
            do {
                if let chunk {
                    try decoder.decode(chunk, &decoded)
                } else {
                    pending.isEnded = true
                    try decoder.finish(&decoded)
                }
                pending.refill(decoded)
            } catch {
                // The elements before the one that failed are the stream's too.
                pending.refill(decoded, thenThrow: base.decodingFailed(error))
            }
        }
    }
}

/// One of the stream decoders behind a ``DecodedResponseStream``, as closures over its state;
/// each appends what it decodes to its argument before it throws. Not `Sendable`: it belongs to
/// one iterator.
final class ElementDecoder<Element> {
    let decode: (Data, inout [Element]) throws(ResponseStreamError) -> Void
    let finish: (inout [Element]) throws(ResponseStreamError) -> Void

    init(
        decode: @escaping (Data, inout [Element]) throws(ResponseStreamError) -> Void,
        finish: @escaping (inout [Element]) throws(ResponseStreamError) -> Void
    ) {
        self.decode = decode
        self.finish = finish
    }
}
