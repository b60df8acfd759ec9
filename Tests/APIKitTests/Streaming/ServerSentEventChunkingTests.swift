import Foundation
import Testing

@testable import APIKit

extension StreamingTests {
    @Suite("ServerSentEventDecoder: a stream split at every byte gives the events of the whole stream")
    struct ServerSentEventChunkingTests {
        /// A BOM, comments, named events, multi-line data, ids, retry, CR, LF and CRLF line ends,
        /// multi-byte characters, a block without data and an unfinished last event.
        static let stream = Array(
            ("\u{FEFF}: hello\r\n"
                + "retry: 3000\n"
                + "event: greeting\r\n"
                + "data: caf\u{E9} \u{1F680}\r"
                + "data:second line\r\n"
                + "id: \u{3042}1\n"
                + "\r\n"
                + ":keep-alive\r"
                + "\r"
                + "id: 2\n"
                + "\n"
                + "data\r\n"
                + "\n"
                + "event: update\r"
                + "data: {\"n\": 3}\r"
                + "\r"
                + "data: unfinished\n").utf8)

        static let expected = [
            ServerSentEvent(event: "greeting", data: "caf\u{E9} \u{1F680}\nsecond line", id: "\u{3042}1", retry: 3000),
            ServerSentEvent(data: "", id: "2"),
            ServerSentEvent(event: "update", data: "{\"n\": 3}", id: "2"),
        ]

        @Test("the whole stream gives the expected events")
        func whole() throws {
            var decoder = ServerSentEventDecoder()
            #expect(try decoder.events(of: [Self.stream]) == Self.expected)
            #expect(decoder.lastEventID == "2")
            #expect(decoder.reconnectionTime == 3000)
        }

        @Test("every split into two or three chunks, and one byte per chunk, gives the same events")
        func everySplitGivesTheSameEvents() throws {
            for split in everySplit(of: Self.stream) {
                var decoder = ServerSentEventDecoder()
                let events = try decoder.events(of: split)
                #expect(events == Self.expected, "split \(split.map(\.count))")
                #expect(decoder.lastEventID == "2")
            }
        }

        @Test("a BOM split at each of its bytes is still stripped once")
        func byteOrderMarkSplit() throws {
            let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("data: a\n\n".utf8)
            for split in everySplit(of: bytes) {
                var decoder = ServerSentEventDecoder()
                #expect(try decoder.events(of: split) == [ServerSentEvent(data: "a")], "split \(split.map(\.count))")
            }
        }

        @Test("the start of a BOM that goes on differently is text however it is split: U+FFFD starts the field name")
        func brokenByteOrderMarkSplit() throws {
            let bytes: [UInt8] = [0xEF, 0xBB] + Array("data: a\n\ndata: b\n\n".utf8)
            for split in everySplit(of: bytes) {
                var decoder = ServerSentEventDecoder()
                #expect(try decoder.events(of: split) == [ServerSentEvent(data: "b")], "split \(split.map(\.count))")
            }
        }
    }
}
