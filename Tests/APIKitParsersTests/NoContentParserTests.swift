import APIKitParsers
import Foundation
import Testing

@Suite("NoContentParser")
struct NoContentParserTests {
    @Test("sends no Accept header")
    func contentType() {
        #expect(NoContentParser().contentType == nil)
    }

    @Test(
        "returns NoContent for any body, discarding it", arguments: [Data(), Data("ignored".utf8), Data([0xFF, 0x00])])
    func discardsBody(body: Data) {
        #expect(NoContentParser().parse(data: body) == NoContent())
    }

    @Test("works through the Parser protocol")
    func asParser() throws {
        func parse<P: Parser>(_ parser: P, _ data: Data) throws -> P.Object {
            try parser.parse(data: data)
        }
        #expect(try parse(NoContentParser(), Data()) == NoContent())
    }
}
