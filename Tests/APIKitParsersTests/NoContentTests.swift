import APIKitParsers
import Foundation
import Testing

@Suite("NoContent")
struct NoContentTests {
    @Test("all values are equal and hash alike")
    func equality() {
        #expect(NoContent() == NoContent())
        #expect(Set([NoContent(), NoContent()]).count == 1)
    }

    @Test("round-trips through JSON as an empty object")
    func codable() throws {
        let data = try JSONEncoder().encode(NoContent())
        #expect(String(decoding: data, as: UTF8.self) == "{}")
        #expect(try JSONDecoder().decode(NoContent.self, from: data) == NoContent())
        #expect(try JSONParser<NoContent>().parse(data: Data(#"{"extra": 1}"#.utf8)) == NoContent())
    }
}
