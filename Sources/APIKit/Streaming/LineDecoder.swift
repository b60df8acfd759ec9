/// Splits a byte stream that arrives in chunks of any size into lines.
///
/// A line ends at CR, LF or CRLF, as in server-sent events and JSON Lines; a CR that ends one
/// chunk and an LF that starts the next are one line end, not two. Each complete line is handed
/// to a closure without its terminator, as a buffer that is valid only during the call: a line
/// that lies inside one chunk is not copied at all, and only the unterminated tail of a chunk
/// is kept, to be joined with the next one. ``finish(onLine:)`` hands over that tail when the
/// stream ends.
///
/// Memory stays bounded: a line longer than ``maximumLineLength`` bytes throws
/// ``ResponseStreamError/lineTooLong(limit:)`` as soon as its length is known to exceed the
/// limit, terminated or not. After an error the decoder throws the same error again.
///
/// Internal, like the decoders built on it (``ServerSentEventDecoder``, ``JSONLinesDecoder``):
/// users read the formats through ``ResponseStream``'s `lines`, `jsonLines(of:decoder:)` and
/// `serverSentEvents`.
///
/// ```swift
/// var lines = LineDecoder()
/// try lines.decode(Data("one\r\ntwo\r".utf8)) { print(String(decoding: $0, as: UTF8.self)) }  // one
/// try lines.decode(Data("\nthree".utf8)) { print(String(decoding: $0, as: UTF8.self)) }       // two
/// try lines.finish { print(String(decoding: $0, as: UTF8.self)) }                              // three
/// ```
struct LineDecoder: Sendable {
    /// The line length limit used when none is given: 1 MiB.
    static let defaultMaximumLineLength = 1 << 20

    /// The longest line accepted, in bytes, its terminator not counted.
    let maximumLineLength: Int

    /// The bytes of the current line that arrived in earlier chunks.
    private var partial: [UInt8] = []
    /// Whether the last chunk ended with CR, so that an LF starting the next one ends no line.
    private var lineFeedMayFollow = false
    /// The error thrown once, thrown again for every later call.
    private var failure: ResponseStreamError?

    /// Creates a decoder at the start of a stream.
    ///
    /// - Parameter maximumLineLength: The longest line accepted, in bytes; a negative value
    ///   is taken as 0 (only empty lines).
    init(maximumLineLength: Int = defaultMaximumLineLength) {
        self.maximumLineLength = max(0, maximumLineLength)
    }

    /// Reads the next chunk of the stream, handing each line it completes to `onLine`.
    ///
    /// - Parameters:
    ///   - chunk: The next bytes of the stream, split anywhere.
    ///   - onLine: Called with each complete line, without its terminator; the buffer is valid
    ///     only during the call.
    /// - Throws: ``ResponseStreamError/lineTooLong(limit:)``, or what `onLine` throws; once
    ///   thrown, the same error on every later call.
    mutating func decode(
        _ chunk: UnsafeRawBufferPointer,
        onLine: (UnsafeBufferPointer<UInt8>) throws(ResponseStreamError) -> Void
    ) throws(ResponseStreamError) {
        if let failure { throw failure }
        do {
            try split(chunk.assumingMemoryBound(to: UInt8.self), onLine: onLine)
        } catch {
            failure = error
            throw error
        }
    }

    /// Reads the next chunk of the stream, handing each line it completes to `onLine`.
    ///
    /// - Parameters:
    ///   - chunk: The next bytes of the stream, split anywhere.
    ///   - onLine: Called with each complete line, without its terminator.
    /// - Throws: ``ResponseStreamError/lineTooLong(limit:)``, or what `onLine` throws.
    mutating func decode(
        _ chunk: some ContiguousBytes,
        onLine: (UnsafeBufferPointer<UInt8>) throws(ResponseStreamError) -> Void
    ) throws(ResponseStreamError) {
        try chunk.withBytes { bytes throws(ResponseStreamError) in try decode(bytes, onLine: onLine) }
    }

    /// Ends the stream: hands the last line to `onLine` when the stream did not end with a line
    /// end, and makes the decoder ready for a new stream.
    ///
    /// - Parameter onLine: Called once with the unterminated last line, if there is one.
    /// - Throws: The error an earlier call threw, if any, and what `onLine` throws.
    mutating func finish(onLine: (UnsafeBufferPointer<UInt8>) throws(ResponseStreamError) -> Void)
        throws(ResponseStreamError)
    {
        let (last, failure) = (partial, failure)
        reset()
        if let failure { throw failure }
        if !last.isEmpty {
            try last.withUnsafeBufferPointer { line throws(ResponseStreamError) in try onLine(line) }
        }
    }

    /// Forgets the current line and any error, as at the start of a new stream.
    mutating func reset() {
        partial = []
        lineFeedMayFollow = false
        failure = nil
    }

    private mutating func split(
        _ bytes: UnsafeBufferPointer<UInt8>,
        onLine: (UnsafeBufferPointer<UInt8>) throws(ResponseStreamError) -> Void
    ) throws(ResponseStreamError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let count = bytes.count
        var start = 0
        if lineFeedMayFollow {
            lineFeedMayFollow = false
            if base[0] == Self.lineFeed { start = 1 }
        }
        // The next LF and the next CR at or after `start`, each searched with memchr only when
        // `start` has passed it: a chunk is read at most once for each byte value, even when
        // one of them never occurs.
        var nextLineFeed = -1
        var nextCarriageReturn = -1
        while start < count {
            if nextLineFeed < start { nextLineFeed = Self.find(Self.lineFeed, in: base, from: start, to: count) }
            if nextCarriageReturn < start {
                nextCarriageReturn = Self.find(Self.carriageReturn, in: base, from: start, to: count)
            }
            let end = min(nextLineFeed, nextCarriageReturn)
            guard end < count else {
                try keep(UnsafeBufferPointer(start: base + start, count: count - start))
                return
            }
            try emit(UnsafeBufferPointer(start: base + start, count: end - start), onLine: onLine)
            if base[end] == Self.lineFeed {
                start = end + 1
            } else if end + 1 == count {
                lineFeedMayFollow = true
                return
            } else {
                start = base[end + 1] == Self.lineFeed ? end + 2 : end + 1
            }
        }
    }

    /// Hands over a line whose end is in this chunk: `segment` itself when no earlier chunk
    /// holds part of it, else the kept part and `segment` joined.
    private mutating func emit(
        _ segment: UnsafeBufferPointer<UInt8>,
        onLine: (UnsafeBufferPointer<UInt8>) throws(ResponseStreamError) -> Void
    ) throws(ResponseStreamError) {
        guard partial.count + segment.count <= maximumLineLength else {
            throw .lineTooLong(limit: maximumLineLength)
        }
        if partial.isEmpty {
            try onLine(segment)
            return
        }
        partial.append(contentsOf: segment)
        try partial.withUnsafeBufferPointer { line throws(ResponseStreamError) in try onLine(line) }
        // A long line's buffer is given back rather than kept for the life of the stream.
        if partial.capacity > Self.keptCapacity {
            partial = []
        } else {
            partial.removeAll(keepingCapacity: true)
        }
    }

    /// Keeps the unterminated tail of a chunk, failing as soon as the line is too long.
    private mutating func keep(_ tail: UnsafeBufferPointer<UInt8>) throws(ResponseStreamError) {
        guard partial.count + tail.count <= maximumLineLength else {
            throw .lineTooLong(limit: maximumLineLength)
        }
        partial.append(contentsOf: tail)
    }

    /// The offset of the first `byte` in `base[from..<to]`, or `to` when there is none.
    @inline(__always)
    private static func find(_ byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        guard from < to, let hit = memchr(base + from, Int32(byte), to - from) else { return to }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }

    /// The largest line buffer kept between lines: 64 KiB.
    private static let keptCapacity = 1 << 16
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
}
