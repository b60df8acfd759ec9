import Foundation
import Testing

@testable import APIKit

extension StreamingTests {
    @Suite("JSONLinesDecoder: one value per line, blank lines skipped, bad lines named")
    struct JSONLinesDecoderTests {
        struct Item: Decodable, Equatable {
            let id: Int
            let name: String?
        }

        static let text = "{\"id\":1}\n\n{\"id\":2,\"name\":\"caf\u{E9}\"}\r\n  \t\r\n{\"id\":3}\r{\"id\":4}"

        @Test("good lines decode in order; blank and whitespace-only lines are skipped; finish() reads the last line")
        func goodLines() throws {
            var decoder = JSONLinesDecoder<Item>()
            var items = try decoder.decode(Data(Self.text.utf8))
            #expect(items.map(\.id) == [1, 2, 3])
            items += try decoder.finish()
            #expect(items.map(\.id) == [1, 2, 3, 4])
            #expect(items[1].name == "caf\u{E9}")
        }

        @Test("every split of the stream gives the same values")
        func everySplitGivesTheSameValues() throws {
            let bytes = Array(Self.text.utf8)
            for split in everySplit(of: bytes) {
                var decoder = JSONLinesDecoder<Item>()
                var items: [Item] = []
                for chunk in split {
                    items += try decoder.decode(chunk)
                }
                items += try decoder.finish()
                #expect(items.map(\.id) == [1, 2, 3, 4], "split \(split.map(\.count))")
            }
        }

        @Test(
            "a bad line throws invalidJSONLine with its number (blank lines counted), a short prefix and a ParsingError, after the values before it"
        )
        func badLine() throws {
            var decoder = JSONLinesDecoder<Item>()
            let long = "{\"id\": \"not a number\", \"padding\": \"\(String(repeating: "p", count: 100))\"}"
            // the value before the bad line comes first; the next call throws
            #expect(try decoder.decode(Data("{\"id\":1}\n\n\(long)\n{\"id\":4}\n".utf8)).map(\.id) == [1])
            do {
                _ = try decoder.decode(Data())
                Issue.record("a bad line decoded")
            } catch {
                guard case .invalidJSONLine(let number, let prefix, let underlying) = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(number == 3)
                #expect(prefix == #"{\"id\": \"not a number\", \"padding\": \"ppppp…"#)
                #expect((underlying as? ParsingError)?.reason == .typeMismatch(expected: "Int"))
                #expect(error.description.hasPrefix("line 3 of the JSON Lines stream could not be decoded: "))
                #expect(!error.description.contains("not a number"))
            }
            #expect(throws: ResponseStreamError.self) { try decoder.decode(Data("{\"id\":5}\n".utf8)) }
        }

        @Test("the last line, read by finish(), is numbered too, and control characters in its prefix are escaped")
        func badLastLine() throws {
            var decoder = JSONLinesDecoder<Item>()
            _ = try decoder.decode(Data("{\"id\":1}\nnot\tjson".utf8))
            do {
                _ = try decoder.finish()
                Issue.record("a bad line decoded")
            } catch {
                guard case .invalidJSONLine(let number, let prefix, _) = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(number == 2)
                #expect(prefix == #"not\tjson"#)
            }
        }

        @Test("a line longer than maximumLineLength throws lineTooLong")
        func lineLimit() throws {
            var decoder = JSONLinesDecoder<Item>(maximumLineLength: 8)
            #expect(try decoder.decode(Data("{\"id\":1}\n".utf8)).map(\.id) == [1])
            #expect(throws: ResponseStreamError.self) { try decoder.decode(Data("{\"id\": 2}\n".utf8)) }
            // finish() throws the failure and leaves the decoder ready for a new stream
            #expect(throws: ResponseStreamError.self) { try decoder.finish() }
            #expect(try decoder.decode(Data("{\"id\":3}\n".utf8)).map(\.id) == [3])
        }

        @Test("the decoder given is used for every line")
        func customDecoder() throws {
            struct Snake: Decodable, Equatable { let userID: Int }
            let json = JSONDecoder()
            json.keyDecodingStrategy = .convertFromSnakeCase
            var decoder = JSONLinesDecoder<Snake>(decoder: json)
            #expect(try decoder.decode(Data("{\"user_i_d\":7}\n".utf8)) == [Snake(userID: 7)])
        }
    }
}
