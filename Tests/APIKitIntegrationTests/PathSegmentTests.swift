import APIKit
import Testing

/// `/anything/files/{name}/raw?page=N`, to see where a path value lands.
struct FileRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NoJSONBody>

    @PathSegment("name") var name = ""
    @Query("page") var page = 1

    var base = HTTPBin.baseURL
    var path = "anything/files/{name}/raw"
    var method: HTTPMethod = .get
    var configuration: Self { self }
}

@Suite("@PathSegment over HTTP", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct PathRoundTripTests {
    @Test("a value with / ? # and spaces stays in its segment: the server sees no extra query or fragment")
    func staysInSegment() async throws {
        let echo = try await perform(FileRequest(name: "a/b?c=1#d e")).get()
        // httpbin echoes the URL with %2F decoded but %3F, %23 and %20 kept.
        #expect(echo.url.hasSuffix("/anything/files/a/b%3Fc=1%23d%20e/raw?page=1"), "echoed \(echo.url)")
        #expect(echo.args.keys.sorted() == ["page"])
        #expect(echo.arg("page") == .one("1"))
    }

    @Test("a plain value fills its placeholder")
    func plainValue() async throws {
        let echo = try await perform(FileRequest(name: "report-2024.pdf", page: 3)).get()
        #expect(echo.url.hasSuffix("/anything/files/report-2024.pdf/raw?page=3"), "echoed \(echo.url)")
    }

    @Test("a dot-segment value is a build error and nothing is sent")
    func dotSegment() async throws {
        var request = FileRequest(name: "..")
        request.base = try HTTPBin.refusedURL()
        let error = try #require(try await perform(request).failure)
        guard case .buildFailed(.invalidPathValue("name", field: "name", reason: .dotSegment), _) = error else {
            Issue.record("expected a build error, got \(error)")
            return
        }
    }
}
