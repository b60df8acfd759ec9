import Foundation
import Testing

@testable import APIKit

extension StreamingTests {
    @Suite("LineDecoder: CR, LF and CRLF line ends, chunks split anywhere, bounded lines")
    struct LineDecoderTests {
        func lines(_ chunks: String..., limit: Int = LineDecoder.defaultMaximumLineLength) throws -> [String] {
            var decoder = LineDecoder(maximumLineLength: limit)
            return try decoder.lines(of: chunks.map { Array($0.utf8) })
        }

        @Test("LF, CRLF and a lone CR each end one line")
        func lineEnds() throws {
            #expect(try lines("a\nb\r\nc\rd\n") == ["a", "b", "c", "d"])
        }

        @Test("a CR ending one chunk and an LF starting the next are one line end")
        func carriageReturnLineFeedAcrossChunks() throws {
            #expect(try lines("a\r", "\nb\n") == ["a", "b"])
            #expect(try lines("a\r", "", "", "\nb\n") == ["a", "b"])
            #expect(try lines("a\r", "\n", "\n") == ["a", ""])
        }

        @Test("a CR ending a chunk and followed by anything but LF ends a line by itself")
        func loneCarriageReturnAtChunkEnd() throws {
            #expect(try lines("a\r", "b\n") == ["a", "b"])
            #expect(try lines("a\r", "\rb") == ["a", "", "b"])
            #expect(try lines("a\rb\r\rc") == ["a", "b", "", "c"])
        }

        @Test("empty lines are lines: LF LF CRLF CR gives four")
        func emptyLines() throws {
            #expect(try lines("\n\n\r\n\r") == ["", "", "", ""])
            #expect(try lines("\r\n", "\r\n") == ["", ""])
        }

        @Test("finish() hands over the last line only when the stream did not end with a line end")
        func lastLine() throws {
            #expect(try lines("a\nlast") == ["a", "last"])
            #expect(try lines("a\n") == ["a"])
            #expect(try lines("a\r") == ["a"])
            #expect(try lines("") == [])
            #expect(try lines("par", "tial", " line") == ["partial line"])
        }

        @Test("a line spread over many chunks is joined, and the decoder goes on after it")
        func longLineAcrossChunks() throws {
            let long = String(repeating: "0123456789", count: 10_000)
            let pieces = stride(from: 0, to: long.utf8.count, by: 4096).map { start in
                String(long.dropFirst(start).prefix(4096))
            }
            #expect(try lines(pieces + ["\nshort\n"]) == [long, "short"])
        }

        func lines(_ chunks: [String]) throws -> [String] {
            var decoder = LineDecoder()
            return try decoder.lines(of: chunks.map { Array($0.utf8) })
        }

        @Test("every split of a text with every kind of line end gives the lines of the whole text")
        func everySplitGivesTheSameLines() throws {
            let bytes = Array("one\r\ntwo\rthree\n\r\n\rcaf\u{E9} \u{1F680}\r\r\nlast".utf8)
            var whole = LineDecoder()
            let expected = try whole.lines(of: [bytes])
            #expect(expected == ["one", "two", "three", "", "", "caf\u{E9} \u{1F680}", "", "last"])
            for split in everySplit(of: bytes) {
                var decoder = LineDecoder()
                #expect(try decoder.lines(of: split) == expected, "split \(split.map(\.count))")
            }
        }

        @Test("a line of exactly the limit passes; one byte more throws lineTooLong naming the limit")
        func lengthLimit() throws {
            #expect(try lines("1234\n", limit: 4) == ["1234"])
            #expect(try lines("12", "34\r\n", limit: 4) == ["1234"])
            #expect(throws: ResponseStreamError.self) { try lines("12345\n", limit: 4) }
            do {
                _ = try lines("123", "45\n", limit: 4)
                Issue.record("a line of 5 bytes passed a limit of 4")
            } catch {
                guard case .lineTooLong(let limit) = error as? ResponseStreamError else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(limit == 4)
            }
        }

        @Test("an unterminated line throws as soon as it passes the limit, without waiting for its end")
        func unterminatedLineThrowsEarly() throws {
            var decoder = LineDecoder(maximumLineLength: 8)
            try decoder.decode(Array("12345".utf8)) { _ in Issue.record("no line is complete") }
            #expect(throws: ResponseStreamError.self) {
                try decoder.decode(Array("6789".utf8)) { _ in }
            }
        }

        @Test("after an error the decoder throws it again, until reset()")
        func errorIsSticky() throws {
            var decoder = LineDecoder(maximumLineLength: 2)
            #expect(throws: ResponseStreamError.self) { try decoder.decode(Array("abc\n".utf8)) { _ in } }
            #expect(throws: ResponseStreamError.self) { try decoder.decode(Array("a\n".utf8)) { _ in } }
            #expect(throws: ResponseStreamError.self) { try decoder.finish { _ in } }
            decoder.reset()
            #expect(try decoder.lines(of: [Array("ok\n".utf8)]) == ["ok"])
        }
    }
}
