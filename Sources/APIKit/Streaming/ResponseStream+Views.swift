// The views of a ResponseStream: each iteration sends the request once, as a loop over the
// chunks does, and decodes the chunks as they arrive.
extension DecodedResponseStream where Element == Data {
    /// The body as lines of UTF-8 text, without their terminators (CR, LF or CRLF); the last
    /// line does not need one. A line longer than 1 MiB ends the stream with
    /// ``ResponseStreamError/lineTooLong(limit:)``.
    ///
    /// ```swift
    /// for try await line in TailRequest().stream(using: session).lines {
    ///     print(line)
    /// }
    /// ```
    public var lines: DecodedResponseStream<String> {
        decoded {
            var lines = LineDecoder()
            return ElementDecoder(
                decode: { chunk, decoded throws(ResponseStreamError) in
                    try lines.decode(chunk) { line in decoded.append(String(decoding: line, as: UTF8.self)) }
                },
                finish: { decoded throws(ResponseStreamError) in
                    try lines.finish { line in decoded.append(String(decoding: line, as: UTF8.self)) }
                })
        }
    }

    /// The body as JSON Lines (one JSON value per line, blank lines skipped), each decoded as
    /// `type`. Lines end at LF, CRLF or CR; a line that does not decode ends the stream
    /// with ``ResponseStreamError/invalidJSONLine(number:prefix:underlying:)``, one longer than
    /// 1 MiB with ``ResponseStreamError/lineTooLong(limit:)``.
    ///
    /// ```swift
    /// struct Token: Decodable { let text: String }
    /// for try await token in GenerateRequest().stream(using: session).jsonLines(of: Token.self) {
    ///     print(token.text, terminator: "")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type of each line's value.
    ///   - decoder: The decoder for each line; a plain `JSONDecoder` by default.
    /// - Returns: The decoded values, in order.
    public func jsonLines<Value: Decodable & Sendable>(
        of type: Value.Type = Value.self,
        decoder: JSONDecoder = JSONDecoder()
    ) -> DecodedResponseStream<Value> {
        let template = JSONLinesDecoder<Value>(decoder: decoder)
        return decoded {
            var values = template
            return ElementDecoder(
                decode: { chunk, decoded throws(ResponseStreamError) in try values.decode(chunk, into: &decoded) },
                finish: { decoded throws(ResponseStreamError) in try values.finish(into: &decoded) })
        }
    }

    /// The body as server-sent events, read by the WHATWG
    /// EventSource rules; an unfinished event at the end of the body is dropped, as those
    /// rules say.
    ///
    /// ```swift
    /// for try await event in EventsRequest().stream(using: session).serverSentEvents {
    ///     print(event.event, event.data)
    /// }
    /// ```
    public var serverSentEvents: DecodedResponseStream<ServerSentEvent> {
        decoded {
            var events = ServerSentEventDecoder()
            return ElementDecoder(
                decode: { chunk, decoded throws(ResponseStreamError) in try events.decode(chunk, into: &decoded) },
                finish: { _ in events.endStream() })
        }
    }

    /// This stream's transfers decoded by the decoder `makeDecoder` makes for each iteration.
    private func decoded<Decoded>(
        _ makeDecoder: @escaping @Sendable () -> ElementDecoder<Decoded>
    ) -> DecodedResponseStream<Decoded> {
        DecodedResponseStream<Decoded>(source: source) { source in
            DecodingReader(base: TransferReader(connection: StreamConnection(source: source)), decoder: makeDecoder())
        }
    }
}
