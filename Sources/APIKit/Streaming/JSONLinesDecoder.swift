/// Decodes a JSON Lines (NDJSON) body — one JSON value per line — into values, chunk by chunk,
/// as the bytes arrive.
///
/// Lines end at LF, CRLF or CR, and may be split across chunks anywhere. Each line that holds
/// anything besides spaces and tabs is decoded on its own by a ``APIKitParsers/JSONParser``, the
/// same reader as a whole JSON response; blank lines are skipped. A line that does not decode
/// throws ``ResponseStreamError/invalidJSONLine(number:prefix:underlying:)`` with its line
/// number. Memory is bounded by the longest line, ``maximumLineLength``. Internal: users read
/// JSON Lines through ``DecodedResponseStream/jsonLines(of:decoder:)``, which feeds it each chunk.
///
/// ```swift
/// struct Item: Decodable { let id: Int }
///
/// var decoder = JSONLinesDecoder<Item>()
/// var items = try decoder.decode(Data("{\"id\":1}\n{\"id\"".utf8))  // [Item(id: 1)]
/// items += try decoder.decode(Data(":2}\n\n{\"id\":3}".utf8))      // [Item(id: 2)]
/// items += try decoder.finish()                                    // [Item(id: 3)]
/// ```
struct JSONLinesDecoder<Element: Decodable>: Sendable {
    /// The line length limit used when none is given: 1 MiB.
    @usableFromInline static var defaultMaximumLineLength: Int { LineDecoder.defaultMaximumLineLength }

    private let parser: JSONParser<Element>
    private var lines: LineDecoder
    /// The number of lines read so far, blank ones included.
    private var lineNumber = 0

    /// Creates a decoder at the start of a stream.
    ///
    /// ```swift
    /// let decoder = JSONDecoder()
    /// decoder.keyDecodingStrategy = .convertFromSnakeCase
    /// var lines = JSONLinesDecoder<Item>(decoder: decoder, maximumLineLength: 64 * 1024)
    /// let items = try lines.decode(chunk)
    /// ```
    ///
    /// - Parameters:
    ///   - decoder: The decoder for each line; by default a plain `JSONDecoder`.
    ///   - maximumLineLength: The longest line accepted, in bytes. A negative value is taken as 0.
    init(decoder: JSONDecoder = JSONDecoder(), maximumLineLength: Int = defaultMaximumLineLength) {
        parser = JSONParser(decoder: decoder)
        lines = LineDecoder(maximumLineLength: maximumLineLength)
    }

    /// Reads the next chunk of the stream and returns the values of the lines it completes.
    ///
    /// What a caller receives depends on the bytes alone, never on how they were split: when a
    /// line fails, this call still returns the values of the lines before it, and the error is
    /// thrown by this call only if there are none; otherwise by the next call to `decode(_:)`
    /// or ``finish()``.
    ///
    /// ```swift
    /// var decoder = JSONLinesDecoder<Item>()
    /// let items = try decoder.decode(Data("{\"id\":1}\n{\"id\":2}\n".utf8))  // two items
    /// let more = try decoder.decode(Data("{\"id\":3}\nnot json\n".utf8))   // [Item(id: 3)]
    /// _ = try decoder.finish()  // throws .invalidJSONLine(number: 4, …)
    /// ```
    ///
    /// - Parameter chunk: The next bytes of the stream (`Data`, `[UInt8]` or any other
    ///   `ContiguousBytes`), split anywhere.
    /// - Returns: The decoded values of the lines that end in this chunk, in order, up to the
    ///   first line that fails.
    /// - Throws: ``ResponseStreamError/invalidJSONLine(number:prefix:underlying:)`` for a line
    ///   that does not decode, ``ResponseStreamError/lineTooLong(limit:)`` for one longer than
    ///   ``maximumLineLength``, when no value comes before it in this chunk. The decoder then
    ///   throws the same error for every later call.
    mutating func decode(_ chunk: some ContiguousBytes) throws(ResponseStreamError) -> [Element] {
        var values: [Element] = []
        do {
            try decode(chunk, into: &values)
        } catch {
            // The decoder keeps the error and throws it again on the next call.
            if values.isEmpty { throw error }
        }
        return values
    }

    /// Appends the values of the lines that end in `chunk` to `values`; when a line fails, the
    /// values of the lines before it are appended before the error is thrown.
    ///
    /// - Parameters:
    ///   - chunk: The next bytes of the stream.
    ///   - values: Where the decoded values go.
    /// - Throws: What ``decode(_:)`` throws, whatever came before it in the chunk.
    mutating func decode(_ chunk: some ContiguousBytes, into values: inout [Element]) throws(ResponseStreamError) {
        try chunk.withBytes { bytes throws(ResponseStreamError) in
            try lines.decode(bytes) { line throws(ResponseStreamError) in
                lineNumber += 1
                try Self.decodeLine(line, number: lineNumber, with: parser, into: &values)
            }
        }
    }

    /// Ends the stream and returns the value of its last line when the stream did not end with a
    /// line end. The decoder is then ready for a new stream, counting lines from 1 again.
    ///
    /// ```swift
    /// var decoder = JSONLinesDecoder<Item>()
    /// _ = try decoder.decode(Data("{\"id\":1}".utf8))  // []: the line may go on
    /// let last = try decoder.finish()                  // [Item(id: 1)]
    /// ```
    ///
    /// - Returns: The last line's value, or nothing when the stream ended with a line end.
    /// - Throws: ``ResponseStreamError/invalidJSONLine(number:prefix:underlying:)`` when the last
    ///   line does not decode, or the error an earlier call found.
    mutating func finish() throws(ResponseStreamError) -> [Element] {
        var values: [Element] = []
        try finish(into: &values)
        return values
    }

    /// Ends the stream, appending the value of its last line to `values`; see ``finish()``.
    ///
    /// - Parameter values: Where the last line's value goes.
    /// - Throws: What ``finish()`` throws.
    mutating func finish(into values: inout [Element]) throws(ResponseStreamError) {
        defer { lineNumber = 0 }
        try lines.finish { line throws(ResponseStreamError) in
            lineNumber += 1
            try Self.decodeLine(line, number: lineNumber, with: parser, into: &values)
        }
    }

    /// Appends the value of line `number`, unless the line is blank.
    private static func decodeLine(
        _ line: UnsafeBufferPointer<UInt8>,
        number: Int,
        with parser: JSONParser<Element>,
        into values: inout [Element]
    ) throws(ResponseStreamError) {
        guard line.contains(where: { $0 != Self.space && $0 != Self.tab }) else { return }
        do {
            values.append(try parser.parse(data: Data(line)))
        } catch {
            throw .invalidJSONLine(
                number: number,
                prefix: ResponseStreamError.linePrefix(line),
                underlying: error
            )
        }
    }

    private static var space: UInt8 { UInt8(ascii: " ") }
    private static var tab: UInt8 { UInt8(ascii: "\t") }
}
