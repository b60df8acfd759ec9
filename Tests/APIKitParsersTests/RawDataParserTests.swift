import APIKitParsers
import Foundation
import Testing

@Suite("RawDataParser")
struct RawDataParserTests {
    @Test("sends no Accept header")
    func contentType() {
        #expect(RawDataParser().contentType == nil)
    }

    @Test("returns the body unchanged", arguments: [Data(), Data([0x00, 0xFF, 0x89, 0x50]), Data("not { json".utf8)])
    func returnsBody(body: Data) {
        #expect(RawDataParser().parse(data: body) == body)
    }

    @Test("returns a sliced body with its indices")
    func slicedBody() {
        let body = Data("0123456789".utf8).dropFirst(3)
        let parsed = RawDataParser().parse(data: body)
        #expect(parsed == body)
        #expect(parsed.startIndex == body.startIndex)
    }

    @Test("works through the Parser protocol")
    func asParser() throws {
        func parse<P: Parser>(_ parser: P, _ data: Data) throws -> P.Object {
            try parser.parse(data: data)
        }
        #expect(try parse(RawDataParser(), Data([1, 2, 3])) == Data([1, 2, 3]))
    }
}
