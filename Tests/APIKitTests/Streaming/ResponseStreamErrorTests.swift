import Foundation
import Testing

@testable import APIKit

extension StreamingTests {
    @Suite("ResponseStreamError: descriptions a person can act on, without the stream's bytes")
    struct ResponseStreamErrorTests {
        @Test("each case names its limit or types, and localizedDescription is the description")
        func descriptions() {
            let cases: [(ResponseStreamError, String)] = [
                (
                    .bufferLimitExceeded(limit: 350),
                    "the stream's consumer fell behind by more than 350 bytes (its buffer limit); the transfer was cancelled"
                ),
                (
                    .unacceptableContentType("application/json", expected: "text/event-stream"),
                    "unacceptable content type application/json (expected text/event-stream)"
                ),
                (.lineTooLong(limit: 1024), "a line of the stream is longer than its limit of 1024 bytes"),
                (
                    .eventTooLarge(limit: 2048),
                    "a server-sent event, or a line of it, is larger than its limit of 2048 bytes"
                ),
            ]
            for (error, text) in cases {
                #expect(error.description == text)
                #expect(error.localizedDescription == text)
            }
        }

        @Test("an invalid JSON line's description keeps its prefix out")
        func jsonLineDescription() {
            struct Underlying: Error, CustomStringConvertible {
                var description: String { "the body is not valid JSON" }
            }
            let error = ResponseStreamError.invalidJSONLine(number: 12, prefix: "SECRET", underlying: Underlying())
            #expect(
                error.description == "line 12 of the JSON Lines stream could not be decoded: the body is not valid JSON"
            )
        }

        @Test("a line's prefix is its first 40 bytes, escaped, with … when cut")
        func linePrefix() {
            func prefix(_ text: String) -> String {
                Array(text.utf8).withUnsafeBufferPointer { ResponseStreamError.linePrefix($0) }
            }
            #expect(prefix("abc\r\u{0}") == #"abc\r\0"#)
            #expect(prefix(String(repeating: "x", count: 40)) == String(repeating: "x", count: 40))
            #expect(prefix(String(repeating: "x", count: 41)) == String(repeating: "x", count: 40) + "…")
        }
    }
}
