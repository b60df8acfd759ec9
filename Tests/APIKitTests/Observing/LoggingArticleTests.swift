import APIKitTestTime
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
        let lines = LogLines()
        let session = Session(
            transport: StubTransport { _ in .success(body: String(repeating: "x", count: 612)) },
            logger: lines.logger())

        _ = try await Login().response(using: session)

        #expect(lines.all.count == 2)
        let request = try #require(lines.requests.first)
        let response = try #require(lines.responses.first)
        #expect(
            request.text
                == "→ #\(request.id) POST https://httpbin.org/anything/login?client=*** (Login)\n"
                + "curl -X POST 'https://httpbin.org/anything/login?client=***' "
                + "-H 'Authorization: ***' -H 'Content-Type: application/json' "
                + "--data-binary '@<request body: 14 bytes, not logged>'"
        )
        #expect(
            response.text
                == "← #\(request.id) 200 POST https://httpbin.org/anything/login?client=*** (Login) "
                + String(format: "%.3f s, 612 bytes", response.elapsed))
    }

    @Test("the Progress, custom-logger and call-event examples compile and build their sessions")
    func progressCompiles() throws {
        var privacy = LogPrivacy(revealsHeaderValues: true, revealsQueryValues: true)
        privacy.sensitiveHeaders.insert("X-Api-Key")
        let logger = RequestLogger(privacy: privacy) { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        #expect(Session(logger: .print).logger != nil)
        let api = Session(defaultHeaders: ["User-Agent": "MyApp/1.0"], logger: logger)
        #expect(api.logger?.privacy.reveals(header: "x-api-key") == false)
        #expect(api.logger?.privacy.reveals(header: "X-Trace") == true)

        let measured = Session(onCallEvent: { event in
            switch event.stage {
            case .responseHead(let head, let timeToFirstByte):
                _ = ((head as? HTTPURLResponse)?.statusCode ?? 0, timeToFirstByte)
            case .finished(let metrics): _ = (metrics.duration, metrics.bytesReceived)
            default: break
            }
        })
        #expect(measured.onCallEvent != nil)

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
