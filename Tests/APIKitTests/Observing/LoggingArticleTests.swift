import Foundation
import Testing

@testable import APIKit

/// The examples of the DocC article "Logging and progress", compiled, and the log lines it shows.
/// Change them together with the article.
@Suite("Article: Logging and progress snippets")
struct LoggingArticleTests {
    struct Login: Request, RequestConfiguration {
        @Header("Authorization") var authorization = "Bearer s3cret"
        @Query("client") var client = "ios"
        @JSONBody var body = ["user": "ada"]

        var base = URL(string: "https://httpbin.org")!
        var path = "anything/login"
        var method: HTTPMethod = .post
        var parser: StringParser { StringParser() }
    }

    struct Upload: JSONDecodableRequest, RequestConfiguration {
        struct Response: Decodable, Sendable { var files: [String: String] }
        @Part("title") var title = "Holiday"
        @FilePart("photo") var photo: MultipartFile? = nil

        var base = URL(string: "https://httpbin.org")!
        var path = "post"
        var method: HTTPMethod = .post
    }

    @Test("the Logging example logs the lines the article shows (the stub answers like httpbin)")
    func loggingLines() async throws {
        let recorder = LogRecorder()
        let session = Session(
            transport: StubTransport { _ in .success(body: String(repeating: "x", count: 612)) },
            logger: recorder.logger())

        _ = try await Login().response(using: session)

        let request = try #require(recorder.requests.first)
        let response = try #require(recorder.responses.first)
        #expect(request.description == "→ #\(request.id) POST https://httpbin.org/anything/login?client=*** (Login)")
        #expect(
            request.curlCommand
                == "curl -X POST 'https://httpbin.org/anything/login?client=***' "
                + "-H 'Authorization: ***' -H 'Content-Type: application/json' "
                + "--data-binary '@<request body: 14 bytes, not logged>'"
        )
        #expect(
            response.description.hasPrefix(
                "← #\(request.id) 200 POST https://httpbin.org/anything/login?client=*** (Login) "))
        #expect(response.description.hasSuffix(" s, 612 bytes"))
    }

    @Test("the Progress and custom-logger examples compile and build their sessions")
    func progressCompiles() throws {
        var privacy = LogPrivacy(revealsHeaderValues: true, revealsQueryValues: true)
        privacy.sensitiveHeaders.insert("X-Api-Key")
        let logger = RequestLogger(privacy: privacy) { event in
            switch event {
            case .request(let request): _ = request.curlCommand
            case .response(let response): _ = (response.statusCode ?? 0, response.elapsed, response.bodySize ?? 0)
            }
        }
        #expect(Session(logger: .print).logger != nil)
        let api = Session(defaultHeaders: ["User-Agent": "MyApp/1.0"], logger: logger)
        #expect(api.logger?.privacy.reveals(header: "x-api-key") == false)
        #expect(api.logger?.privacy.reveals(header: "X-Trace") == true)

        let uploads = Session(transport: URLSessionTransport(configuration: .default))
        let start: (URL) async throws -> Upload.Response = { file in
            try await Upload(photo: .file(file)).response(
                using: uploads,
                progress: { progress in
                    if let total = progress.expectedBytesToSend, total > 0 {
                        _ = "uploaded \(progress.bytesSent * 100 / total) %"
                    }
                })
        }
        _ = start
        #expect(uploads.transport is URLSessionTransport)
    }
}
