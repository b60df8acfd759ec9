import APIKit
import Testing

struct EchoedItem: Codable, Sendable, Equatable {
    var id: Int
    var name: String
}

/// A top-level JSON array as the whole body.
struct ImportRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<[EchoedItem]>

    @JSONBody var items: [EchoedItem] = []

    var base = HTTPBin.baseURL
    var path = "anything/import"
    var method: HTTPMethod = .post
    var configuration: Self { self }
}

/// Bytes with a content type as the whole body.
struct UploadRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>

    @DataBody("text/plain; charset=utf-8") var text: Data? = nil

    var base = HTTPBin.baseURL
    var path = "anything/upload"
    var method: HTTPMethod = .put
    var configuration: Self { self }
}

@Suite("Whole bodies over HTTP", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct WholeBodyRoundTripTests {
    @Test("a top-level JSON array arrives as that array")
    func jsonArray() async throws {
        let items = [EchoedItem(id: 1, name: "a/b \"c\""), EchoedItem(id: 2, name: "東京 👍🏽")]
        let echo = try await perform(ImportRequest(items: items)).get()
        #expect(echo.json == items)
        #expect(echo.header("Content-Type") == "application/json")
    }

    @Test("data arrives byte for byte with its content type")
    func data() async throws {
        let text = "line 1\r\nline 2 – ünïcödé"
        let echo = try await perform(UploadRequest(text: Data(text.utf8))).get()
        #expect(echo.data == text)
        #expect(echo.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(echo.method == "PUT")
    }
}
