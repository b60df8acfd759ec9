import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("Cache-Status: how a caller tells a response came from the cache (RFC 9211), with the tests' reader")
    struct CacheStatusTests {
        private static func response(_ status: String?) -> URLResponse {
            HTTPURLResponse(
                url: URL(string: "https://api.example.test/")!, statusCode: 200, httpVersion: nil,
                headerFields: status.map { ["Cache-Status": $0] })!
        }

        @Test(
            "Only APIKit's own hit or 304, as the last member, counts",
            arguments: [
                ("APIKit; hit", true), ("APIKit; hit; ttl=5", true), ("APIKit; fwd=stale; fwd-status=304", true),
                ("ExampleCDN; hit, APIKit; hit", true), ("APIKit; hit, ExampleCDN; fwd=uri-miss", false),
                ("ExampleCDN; hit", false), ("APIKit; fwd=uri-miss", false), ("apikit; hit", false), ("", false),
            ])
        func marker(status: String, fromCache: Bool) {
            #expect(Self.response(status).isFromHTTPCache == fromCache)
        }

        @Test("A response without the header, or not HTTP, is not from the cache")
        func absent() {
            #expect(!Self.response(nil).isFromHTTPCache)
            let plain = URLResponse(
                url: URL(string: "file:///tmp/x")!, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
            #expect(!plain.isFromHTTPCache)
        }

        @Test("The cache appends its member to a Cache-Status the server sent")
        func appends() async throws {
            let harness = CacheHarness { _, _ in
                .success(headers: ["Cache-Control": "max-age=60", "Cache-Status": "ExampleCDN; hit"], body: "ok")
            }
            #expect(try await !harness.send().fromCache)
            let hit = try await harness.send()
            #expect(hit.headers["cache-status"] == "ExampleCDN; hit, APIKit; hit; ttl=60")
            #expect(hit.fromCache)
        }
    }
}
