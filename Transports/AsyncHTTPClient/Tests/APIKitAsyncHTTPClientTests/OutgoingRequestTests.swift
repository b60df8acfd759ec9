import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Testing

@testable import APIKitAsyncHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Converting a URLRequest for AsyncHTTPClient, without a network: which headers go out.
@Suite("OutgoingRequest")
struct OutgoingRequestTests {
    @Test(
        "Content-Length and Transfer-Encoding are framing headers in any case; names alike in length are not",
        arguments: [
            ("Content-Length", true), ("content-length", true), ("CONTENT-LENGTH", true), ("cOnTeNt-LeNgTh", true),
            ("Transfer-Encoding", true), ("transfer-encoding", true), ("TRANSFER-ENCODING", true),
            ("Content-Lengtx", false), ("Content_Length", false), ("Content-Type", false),
            ("Transfer-Encodinh", false), ("Authorization", false), ("", false), ("content-length ", false),
            // bytes that fold onto the letters with `| 0x20` but are not their upper case
            ("\u{03}ontent-length", false), ("content\u{0D}length", false),
        ])
    func framing(name: String, isFraming: Bool) {
        #expect(OutgoingRequest.isFraming(name) == isFraming)
    }

    @Test("The framing headers of a request are dropped, every other header goes out as it is")
    func headers() throws {
        var urlRequest = URLRequest(url: URL(string: "http://127.0.0.1:9/headers")!)
        urlRequest.setValue("12", forHTTPHeaderField: "content-LENGTH")
        urlRequest.setValue("chunked", forHTTPHeaderField: "Transfer-encoding")
        urlRequest.setValue("Bearer x", forHTTPHeaderField: "Authorization")
        urlRequest.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        let outgoing = try OutgoingRequest(urlRequest, onChunkSent: { _ in })
        let headers = outgoing.request.headers
        #expect(headers["content-length"].isEmpty)
        #expect(headers["transfer-encoding"].isEmpty)
        #expect(headers["authorization"] == ["Bearer x"])
        #expect(headers["content-type"] == ["text/plain"])
        #expect(headers.count == 2)
    }
}
