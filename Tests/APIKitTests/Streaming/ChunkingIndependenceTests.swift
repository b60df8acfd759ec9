import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

extension StreamingTests {
    /// What a reader gets from a body must depend on its bytes alone: generated bodies (valid and
    /// invalid lines or events at every position, multi-byte UTF-8, CR, LF and CRLF) are fed
    /// split at every byte, one byte per chunk and at random places, and every chunking must
    /// give the elements the bytes contain, then the same error.
    @Suite("Every stream reader delivers the same elements and error whatever the chunking")
    struct ChunkingIndependenceTests {
        static let seeds: [UInt64] = Array(1...24)

        // MARK: The decoders

        /// The public decoder API used as a caller would: decode each chunk, then finish; the
        /// values, and the first error.
        static func read(
            _ chunks: [[UInt8]], with decoder: JSONLinesDecoder<StreamBodies.Item>
        ) -> ([StreamBodies.Item], String?) {
            var decoder = decoder
            var items: [StreamBodies.Item] = []
            do {
                for chunk in chunks { items += try decoder.decode(chunk) }
                items += try decoder.finish()
                return (items, nil)
            } catch {
                return (items, StreamBodies.summary(error))
            }
        }

        @Test("JSONLinesDecoder: the values before a bad line are returned, then its error", arguments: seeds)
        func jsonLinesDecoder(seed: UInt64) {
            let body = StreamBodies.jsonLines(seed: seed, count: 8, badLine: seed % 4 != 0)
            for chunks in StreamBodies.chunkings(of: body.bytes, random: 40, seed: seed) {
                let (items, error) = Self.read(chunks, with: JSONLinesDecoder())
                #expect(items == body.elements, "\(body), chunks \(chunks.map(\.count))")
                #expect(error == body.error, "\(body), chunks \(chunks.map(\.count))")
            }
        }

        @Test("JSONLinesDecoder: a call that returns values before a bad line throws on the next call, then always")
        func jsonLinesDecoderThrowsOnTheNextCall() throws {
            var decoder = JSONLinesDecoder<StreamBodies.Item>()
            let items = try decoder.decode(
                Data("{\"id\":0,\"text\":\"a\"}\nnot json\n{\"id\":2,\"text\":\"c\"}\n".utf8))
            #expect(items == [StreamBodies.Item(id: 0, text: "a")])
            #expect(throws: ResponseStreamError.self) { try decoder.decode(Data()) }
            #expect(throws: ResponseStreamError.self) { try decoder.finish() }
        }

        @Test("LineDecoder: the lines before one over the limit, then lineTooLong", arguments: seeds)
        func lineDecoder(seed: UInt64) {
            let body = StreamBodies.lines(seed: seed, count: 8, limit: seed % 3 == 0 ? nil : 40)
            for chunks in StreamBodies.chunkings(of: body.bytes, random: 40, seed: seed) {
                var decoder = LineDecoder(maximumLineLength: 40)
                var lines: [String] = []
                var failure: String?
                do {
                    for chunk in chunks {
                        try decoder.decode(chunk) { lines.append(String(decoding: $0, as: UTF8.self)) }
                    }
                    try decoder.finish { lines.append(String(decoding: $0, as: UTF8.self)) }
                } catch {
                    failure = StreamBodies.summary(error)
                }
                #expect(lines == body.elements, "\(body), chunks \(chunks.map(\.count))")
                #expect(failure == body.error, "\(body), chunks \(chunks.map(\.count))")
            }
        }

        @Test("ServerSentEventDecoder: the events before one too large, then eventTooLarge", arguments: seeds)
        func serverSentEventDecoder(seed: UInt64) {
            let body = StreamBodies.events(seed: seed, count: 5, limit: seed % 3 == 0 ? nil : 40)
            for chunks in StreamBodies.chunkings(of: body.bytes, random: 40, seed: seed) {
                var decoder = ServerSentEventDecoder(maximumEventSize: 40)
                var events: [ServerSentEvent] = []
                var failure: String?
                do {
                    for chunk in chunks { events += try decoder.decode(chunk) }
                    try decoder.finish()
                } catch {
                    failure = StreamBodies.summary(error)
                }
                #expect(events == body.elements, "\(body), chunks \(chunks.map(\.count))")
                #expect(failure == body.error, "\(body), chunks \(chunks.map(\.count))")
            }
        }

        @Test("ServerSentEventDecoder: finish() throws an error held back behind returned events, once")
        func serverSentEventFinishThrowsHeldBackError() throws {
            var decoder = ServerSentEventDecoder(maximumEventSize: 8)
            let events = try decoder.decode(Data("data: a\n\ndata: 123456789\n\n".utf8))
            #expect(events == [ServerSentEvent(data: "a")])
            let error = #expect(throws: ResponseStreamError.self) { try decoder.finish() }
            #expect(error.map(StreamBodies.summary) == "eventTooLarge(8)")
            try decoder.finish()  // ready for the next stream, nothing held back
            #expect(try decoder.decode(Data("data: b\n\n".utf8)) == [ServerSentEvent(data: "b")])
        }

        // MARK: The stream views, over StubTransport

        static func session(_ chunks: [[UInt8]], contentType: String) -> Session {
            Session(
                transport: StubTransport { _ in
                    .stream(headers: ["Content-Type": contentType], chunks: chunks.map { Data($0) })
                })
        }

        @Test("jsonLines(of:) over StubTransport: the items before a bad line, then .parsingFailed", arguments: seeds)
        func jsonLinesStream(seed: UInt64) async {
            let body = StreamBodies.jsonLines(seed: seed, count: 6, badLine: seed % 4 != 0)
            for chunks in StreamBodies.chunkings(of: body.bytes, random: 10, seed: seed) {
                let stream = StreamedRequest().stream(using: Self.session(chunks, contentType: "application/x-ndjson"))
                    .jsonLines(of: StreamBodies.Item.self)
                let (items, error) = await collect(stream)
                #expect(items == body.elements, "\(body), chunks \(chunks.map(\.count))")
                #expect(error == body.error, "\(body), chunks \(chunks.map(\.count))")
            }
        }

        @Test("lines over StubTransport: every line, whatever the chunking", arguments: seeds.prefix(8))
        func linesStream(seed: UInt64) async {
            let body = StreamBodies.lines(seed: seed, count: 6, limit: nil)
            for chunks in StreamBodies.chunkings(of: body.bytes, random: 10, seed: seed) {
                let stream = StreamedRequest().stream(using: Self.session(chunks, contentType: "text/plain")).lines
                let (lines, error) = await collect(stream)
                #expect(lines == body.elements, "\(body), chunks \(chunks.map(\.count))")
                #expect(error == nil, "\(body), chunks \(chunks.map(\.count))")
            }
        }

        @Test("lines over StubTransport: the lines before one over 1 MiB arrive, then lineTooLong")
        func linesStreamTooLong() async {
            let limit = JSONLinesDecoder<StreamBodies.Item>.defaultMaximumLineLength
            let bytes =
                Array("one\r\ntwo\n\u{1F680}\r".utf8) + Array(repeating: UInt8(ascii: "x"), count: limit + 1)
                + Array("\nafter\n".utf8)
            for chunks in StreamBodies.randomChunkings(of: bytes, count: 6, seed: 7) {
                let stream = StreamedRequest().stream(using: Self.session(chunks, contentType: "text/plain")).lines
                let (lines, error) = await collect(stream)
                #expect(lines == ["one", "two", "\u{1F680}"], "chunks \(chunks.map(\.count))")
                #expect(error == "lineTooLong(\(limit))", "chunks \(chunks.map(\.count))")
            }
        }

        @Test("serverSentEvents over StubTransport: every event, whatever the chunking", arguments: seeds.prefix(8))
        func serverSentEventsStream(seed: UInt64) async {
            let body = StreamBodies.events(seed: seed, count: 4, limit: nil)
            for chunks in StreamBodies.chunkings(of: body.bytes, random: 10, seed: seed) {
                let stream = StreamedRequest().stream(using: Self.session(chunks, contentType: "text/event-stream"))
                    .serverSentEvents
                let (events, error) = await collect(stream)
                #expect(events == body.elements, "\(body), chunks \(chunks.map(\.count))")
                #expect(error == nil, "\(body), chunks \(chunks.map(\.count))")
            }
        }

        @Test(
            "reconnectingServerSentEvents over StubTransport: every event of the first connection, then the 204 ends it",
            arguments: seeds.prefix(6))
        func reconnectingStream(seed: UInt64) async {
            let body = StreamBodies.events(seed: seed, count: 3, limit: nil)
            for chunks in StreamBodies.chunkings(of: body.bytes, random: 6, seed: seed) {
                let connections = Protected(0)
                let transport = StubTransport { _ in
                    let number = connections.withLock { count -> Int in
                        count += 1
                        return count
                    }
                    return number == 1
                        ? .stream(headers: ["Content-Type": "text/event-stream"], chunks: chunks.map { Data($0) })
                        : .success(status: 204)
                }
                let stream = StreamedRequest().stream(using: Session(transport: transport))
                    .reconnectingServerSentEvents(maximumAttempts: 2, initialDelay: 0)
                let (events, error) = await collect(stream)
                #expect(events == body.elements, "\(body), chunks \(chunks.map(\.count))")
                #expect(error == nil, "\(body), chunks \(chunks.map(\.count))")
                #expect(connections.value == 2)
            }
        }

        @Test(
            "reconnectingServerSentEvents over StubTransport: the events before one over 1 MiB, then eventTooLarge, no reconnection"
        )
        func reconnectingTooLarge() async {
            let limit = ServerSentEventDecoder.defaultMaximumEventSize
            let bytes =
                Array("id: 1\ndata: a\n\ndata: \u{1F680}\r\n\r\ndata: ".utf8)
                + Array(repeating: UInt8(ascii: "d"), count: limit + 1) + Array("\n\ndata: after\n\n".utf8)
            let expected = [ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "\u{1F680}", id: "1")]
            for chunks in StreamBodies.randomChunkings(of: bytes, count: 4, seed: 13) {
                let connections = Protected(0)
                let transport = StubTransport { _ in
                    connections.withLock { $0 += 1 }
                    return .stream(headers: ["Content-Type": "text/event-stream"], chunks: chunks.map { Data($0) })
                }
                let stream = StreamedRequest().stream(using: Session(transport: transport))
                    .reconnectingServerSentEvents(maximumAttempts: 2, initialDelay: 0)
                let (events, error) = await collect(stream)
                #expect(events == expected, "chunks \(chunks.map(\.count))")
                #expect(error == "eventTooLarge(\(limit))", "chunks \(chunks.map(\.count))")
                #expect(connections.value == 1, "a decoding error does not reconnect")
            }
        }

        @Test("serverSentEvents over StubTransport: the events before one over 1 MiB arrive, then eventTooLarge")
        func serverSentEventsTooLarge() async {
            let limit = ServerSentEventDecoder.defaultMaximumEventSize
            let bytes =
                Array("data: a\n\nid: 1\ndata: \u{E9}\r\n\r\ndata: ".utf8)
                + Array(repeating: UInt8(ascii: "d"), count: limit + 1) + Array("\n\ndata: after\n\n".utf8)
            let expected = [ServerSentEvent(data: "a"), ServerSentEvent(data: "\u{E9}", id: "1")]
            for chunks in StreamBodies.randomChunkings(of: bytes, count: 6, seed: 11) {
                let stream = StreamedRequest().stream(using: Self.session(chunks, contentType: "text/event-stream"))
                    .serverSentEvents
                let (events, error) = await collect(stream)
                #expect(events == expected, "chunks \(chunks.map(\.count))")
                #expect(error == "eventTooLarge(\(limit))", "chunks \(chunks.map(\.count))")
            }
        }
    }
}

/// The elements of `sequence` until it ends or throws, and the summary of a decoding error (any
/// other error described as it is).
func collect<S: AsyncSequence>(_ sequence: S) async -> ([S.Element], String?) where S.Failure == RequestError {
    var elements: [S.Element] = []
    do {
        for try await element in sequence { elements.append(element) }
        return (elements, nil)
    } catch .parsingFailed(let error as ResponseStreamError, _, _, _) {
        return (elements, StreamBodies.summary(error))
    } catch {
        return (elements, "\(error)")
    }
}
