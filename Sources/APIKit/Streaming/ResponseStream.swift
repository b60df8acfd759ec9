/// A response body read while it arrives, as the chunks of `Data` the transport delivers: the
/// ``DecodedResponseStream`` whose elements are the body's bytes, undecoded.
///
/// Made by ``Request/stream(using:options:maximumBufferSize:)``; its views decode the chunks
/// into lines (``DecodedResponseStream/lines``), JSON values
/// (``DecodedResponseStream/jsonLines(of:decoder:)``) or server-sent events
/// (``DecodedResponseStream/serverSentEvents``). ``DecodedResponseStream`` says how a loop sends
/// the request, checks the status, buffers, cancels and fails; `ResponseStream.Iterator` is its
/// ``DecodedResponseStream/Iterator``.
///
/// ```swift
/// for try await chunk in LogRequest().stream(using: session) {
///     print(chunk.count, "bytes")
/// }
/// ```
public typealias ResponseStream = DecodedResponseStream<Data>

extension DecodedResponseStream where Element == Data {
    /// The buffer limit used when none is given: 8 MiB.
    @usableFromInline static var defaultMaximumBufferSize: Int { 8 << 20 }

    /// The chunks of the request that `source` sends, one transfer per iteration.
    init(source: ResponseStreamSource) {
        self.init(source: source) { source in TransferReader(connection: StreamConnection(source: source)) }
    }
}
