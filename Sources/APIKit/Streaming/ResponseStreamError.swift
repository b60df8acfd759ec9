/// Why a response stream, or one of its decoders, stopped.
///
/// One type for the failures of streaming, whichever stage met them; the stage is the
/// ``RequestError`` case that carries it:
/// - ``bufferLimitExceeded(limit:)``: the consumer fell behind, so ``ResponseStream`` cancelled
///   the transfer; carried by ``RequestError/transportFailed(_:context:)``.
/// - ``unacceptableContentType(_:expected:)``: ``DecodedResponseStream/reconnectingServerSentEvents(maximumAttempts:initialDelay:)``
///   met an accepted response that is not an event stream, and failed without reconnecting, as
///   EventSource does; carried by ``RequestError/responseInterceptorFailed(_:body:response:context:)``
///   (an empty body: the stream's bytes are not read).
/// - ``lineTooLong(limit:)``, ``eventTooLarge(limit:)``,
///   ``invalidJSONLine(number:prefix:underlying:)``: a ``DecodedResponseStream``
///   (``DecodedResponseStream/lines``, ``DecodedResponseStream/jsonLines(of:decoder:)``,
///   ``DecodedResponseStream/serverSentEvents``) could not read the bytes as they arrived; carried by
///   ``RequestError/parsingFailed(_:body:response:context:)``.
///
/// The decoders hold at most one line, or one event, of the stream in memory; a stream that
/// would need more fails with ``lineTooLong(limit:)`` or ``eventTooLarge(limit:)`` instead of
/// growing without bound. Once a decoder has thrown, it throws the same error for every later
/// chunk: a stream cannot be resumed in the middle of a broken line.
///
/// The description names the problem, the limit and the line number, never the stream's bytes,
/// so it can be logged; a line that did not decode keeps a short escaped prefix in
/// ``invalidJSONLine(number:prefix:underlying:)`` for you to read explicitly.
///
/// ```swift
/// do {
///     for try await chunk in request.stream(using: session, maximumBufferSize: 1 << 20) { await slowly(chunk) }
/// } catch {
///     if case .bufferLimitExceeded(let limit)? = error.underlyingError as? ResponseStreamError {
///         print("fell behind by more than \(limit) bytes")
///     }
/// }
///
/// do {
///     for try await item in request.stream(using: session).jsonLines(of: Item.self) { print(item) }
/// } catch {
///     if case .invalidJSONLine(let number, let prefix, _)? = error.underlyingError as? ResponseStreamError {
///         print("line \(number) is not an Item: \(prefix)")
///     }
/// }
/// ```
public enum ResponseStreamError: Error, Sendable {
    /// The consumer fell behind: the chunks waiting for it would have taken more than `limit`
    /// bytes, so the transfer was cancelled (see ``DecodedResponseStream``).
    case bufferLimitExceeded(limit: Int)
    /// An accepted response declared the `Content-Type` `contentType` where `expected` (such
    /// as `text/event-stream`) was needed.
    case unacceptableContentType(_ contentType: String, expected: String)
    /// A line is longer than `limit` bytes (its terminator not counted); the line was not kept.
    case lineTooLong(limit: Int)
    /// A server-sent event's data and type (a line end counted after each `data` line), or one
    /// line of its block, would take more than `limit` bytes (1 MiB for
    /// ``DecodedResponseStream/serverSentEvents``).
    case eventTooLarge(limit: Int)
    /// Line `number` (counted from 1, blank lines included) is not a JSON value of the expected
    /// type. `prefix` holds the line's first characters, control characters escaped, for you to
    /// read; `underlying` is the ``APIKitParsers/ParsingError`` that `JSONParser` threw.
    case invalidJSONLine(number: Int, prefix: String, underlying: any Error)

    /// The number of UTF-8 bytes of a line that ``invalidJSONLine(number:prefix:underlying:)``
    /// keeps in its prefix.
    static let linePrefixLimit = 40

    /// The escaped prefix of a line for ``invalidJSONLine(number:prefix:underlying:)``: its first
    /// ``linePrefixLimit`` bytes decoded as UTF-8, followed by `…` when the line is longer.
    ///
    /// - Parameter line: The line's bytes, without the terminator.
    /// - Returns: The prefix, safe to print on one line.
    static func linePrefix(_ line: UnsafeBufferPointer<UInt8>) -> String {
        let kept = UnsafeBufferPointer(rebasing: line.prefix(linePrefixLimit))
        let text = String(decoding: kept, as: UTF8.self).debugEscaped
        return line.count > linePrefixLimit ? text + "…" : text
    }
}

extension ResponseStreamError: LocalizedError, CustomStringConvertible {
    /// The same text as ``description``.
    public var errorDescription: String? {
        description
    }

    /// A sentence naming the problem and the limit, the types or the line; never the stream's
    /// bytes. For example `the stream's consumer fell behind by more than 8388608 bytes (its
    /// buffer limit); the transfer was cancelled`.
    public var description: String {
        switch self {
        case .bufferLimitExceeded(let limit):
            "the stream's consumer fell behind by more than \(limit) bytes (its buffer limit); the transfer was cancelled"
        case .unacceptableContentType(let contentType, let expected):
            "unacceptable content type \(contentType) (expected \(expected))"
        case .lineTooLong(let limit):
            "a line of the stream is longer than its limit of \(limit) bytes"
        case .eventTooLarge(let limit):
            "a server-sent event, or a line of it, is larger than its limit of \(limit) bytes"
        case .invalidJSONLine(let number, _, let underlying):
            "line \(number) of the JSON Lines stream could not be decoded: \(underlying)"
        }
    }
}
