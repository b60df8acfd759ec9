import Foundation
import Testing

@testable import APIKit

/// A POST of `/chunks`: the FastAPI server answers with `chunks` as the body, each written on
/// its own, 2 ms apart.
struct FastAPIChunksRequest: Request, RequestConfiguration {
    @JSON("chunks") var chunks: [String] = []
    @JSON("content_type") var contentType = "text/plain"
    var base = FastAPIServer.url ?? URL(string: "http://127.0.0.1:9")!
    var path: String { "chunks" }
    var method: HTTPMethod { .post }
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    var options: RequestOptions { RequestOptions(timeout: 20) }

    init(_ chunks: [[UInt8]], contentType: String) {
        self.chunks = chunks.map { chunk in chunk.map { String(format: "%02x", $0) }.joined() }
        self.contentType = contentType
    }
}

/// The stream readers over real sockets: a body written by the server in the chunks a test
/// chose — at every line boundary and one byte off it, one byte at a time, at random places —
/// must give, through each transport under test, what the public decoder gives for the whole
/// body at once: the same elements, then the same error.
@Suite(
    "Stream readers against a real server: the same elements and error whatever the chunking (FastAPI /chunks)",
    .enabled(if: FastAPIServer.url != nil, FastAPIServer.skipReason))
struct StreamChunkingTests {
    static let jsonLines = Array(
        ("{\"id\":0,\"text\":\"caf\u{E9}\"}\r\n\n{\"id\":1,\"text\":\"\u{1F680}\"}\r"
            + "{\"id\":2,\"text\":\"\u{3042}\"}\n{\"id\":\"three\"}\n{\"id\":4,\"text\":\"never\"}\n").utf8)
    static let events = Array(
        ("\u{FEFF}: hi\r\nevent: tick\r\ndata: caf\u{E9}\r\ndata: \u{1F680}\r\n\r\n"
            + "id: 1\ndata: \u{3042}\n\n: keep-alive\rdata: last\rid: 2\r\r").utf8)

    struct Item: Decodable, Sendable, Equatable {
        let id: Int
        let text: String
    }

    /// Cuts at each line end and one byte either side, one byte a chunk, and five random ones.
    static func chunkings(of bytes: [UInt8]) -> [[[UInt8]]] {
        var cuts = Set<Int>()
        for (index, byte) in bytes.enumerated() where byte == 0x0A || byte == 0x0D {
            cuts.formUnion([index, index + 1, index + 2].filter { $0 < bytes.count })
        }
        var result = [cut(bytes, at: cuts.sorted()), bytes.map { [$0] }]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<5 {
            let some = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                Int.random(in: 1..<bytes.count, using: &random)
            }
            result.append(cut(bytes, at: Set(some).sorted()))
        }
        return result
    }

    static func cut(_ bytes: [UInt8], at cuts: [Int]) -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var start = 0
        for cut in cuts where cut > start {
            chunks.append(Array(bytes[start..<cut]))
            start = cut
        }
        chunks.append(Array(bytes[start...]))
        return chunks
    }

    /// The elements of `sequence`, then the description of the error that ended it.
    func collect<S: AsyncSequence>(_ sequence: S) async -> ([S.Element], String?) where S.Failure == RequestError {
        var elements: [S.Element] = []
        do {
            for try await element in sequence { elements.append(element) }
            return (elements, nil)
        } catch .parsingFailed(let error as ResponseStreamError, _, _, _) {
            return (elements, "\(error)")
        } catch {
            return (elements, "not a decoding error: \(error)")
        }
    }

    @Test("jsonLines(of:): the items before the bad line, then its error, through each transport")
    func jsonLines() async throws {
        var whole = JSONLinesDecoder<Item>()
        let expected = try whole.decode(Self.jsonLines)
        let expectedError = #expect(throws: ResponseStreamError.self) { try whole.finish() }.map { "\($0)" }
        #expect(expected.map(\.id) == [0, 1, 2])
        #expect(expectedError?.hasPrefix("line 5 of the JSON Lines stream") == true)
        for (name, transport) in TestTransport.all() {
            for chunks in Self.chunkings(of: Self.jsonLines) {
                let stream = FastAPIChunksRequest(chunks, contentType: "application/x-ndjson").stream(
                    using: Session(transport: transport)
                )
                .jsonLines(of: Item.self)
                let (items, error) = await collect(stream)
                #expect(items == expected, "\(name), chunks \(chunks.map(\.count))")
                #expect(error == expectedError, "\(name), chunks \(chunks.map(\.count))")
            }
        }
    }

    @Test("lines: every line, CR, LF and CRLF, multi-byte characters, through each transport")
    func lines() async throws {
        let expected = [
            "{\"id\":0,\"text\":\"caf\u{E9}\"}", "", "{\"id\":1,\"text\":\"\u{1F680}\"}",
            "{\"id\":2,\"text\":\"\u{3042}\"}", "{\"id\":\"three\"}", "{\"id\":4,\"text\":\"never\"}",
        ]
        for (name, transport) in TestTransport.all() {
            for chunks in Self.chunkings(of: Self.jsonLines) {
                let stream = FastAPIChunksRequest(chunks, contentType: "text/plain").stream(
                    using: Session(transport: transport)
                ).lines
                let (lines, error) = await collect(stream)
                #expect(lines == expected, "\(name), chunks \(chunks.map(\.count))")
                #expect(error == nil, "\(name), chunks \(chunks.map(\.count))")
            }
        }
    }

    @Test("serverSentEvents, and reconnecting until the 204: every event once, through each transport")
    func serverSentEvents() async throws {
        var whole = ServerSentEventDecoder()
        let expected = try whole.decode(Self.events)
        #expect(expected.count == 3)
        for (name, transport) in TestTransport.all() {
            for chunks in Self.chunkings(of: Self.events) {
                let request = FastAPIChunksRequest(chunks, contentType: "text/event-stream")
                let stream = request.stream(using: Session(transport: transport))
                let (events, error) = await collect(stream.serverSentEvents)
                #expect(events == expected, "\(name), chunks \(chunks.map(\.count))")
                #expect(error == nil, "\(name), chunks \(chunks.map(\.count))")
                let reconnecting = stream.reconnectingServerSentEvents(maximumAttempts: 2, initialDelay: 0)
                let (again, reconnectingError) = await collect(reconnecting)
                #expect(again == expected, "\(name), reconnecting, chunks \(chunks.map(\.count))")
                #expect(reconnectingError == nil, "\(name), reconnecting, chunks \(chunks.map(\.count))")
            }
        }
    }
}
