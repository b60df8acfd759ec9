import APIKit
import APIKitTestSupport
import Testing

/// Records the events of a ``RequestLogger``.
final class LogLines: Sendable {
    private let events = Protected<[RequestLogEvent]>([])

    func logger(_ privacy: LogPrivacy = LogPrivacy()) -> RequestLogger {
        RequestLogger(privacy: privacy) { [events] event in events.withLock { $0.append(event) } }
    }

    var all: [RequestLogEvent] { events.withLock { $0 } }

    /// Every text a log line could hold.
    var texts: [String] {
        all.flatMap { event -> [String] in
            switch event {
            case .request(let request):
                [request.description, request.curlCommand] + request.headers.map { "\($0.key): \($0.value)" }
            case .response(let response):
                [response.description, response.error ?? ""] + response.headers.map { "\($0.key): \($0.value)" }
            }
        }
    }
}

/// httpbin's `/cookies/set?name=value`, which answers with `Set-Cookie` and a redirect,
/// sent with credentials in each header that carries them.
struct CredentialedRequest: Request, RequestConfiguration {
    @Header("Authorization") var authorization = "Bearer it-s3cret-t0ken"
    @Header("Cookie") var cookie = "sid=it-c00kie"
    @Header("X-Api-Key") var apiKey = "it-api-k3y"
    @Query("flavour") var flavour = "it-qu3ry"
    @JSONBody var body = ["password": "it-b0dy-pw"]

    var base = HTTPBin.baseURL
    var path = "anything"
    var method: HTTPMethod = .post
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }

    static let secrets = ["it-s3cret-t0ken", "it-c00kie", "it-api-k3y", "it-qu3ry", "it-b0dy-pw"]
}

@Suite("Logging over HTTP", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct LoggingTests {
    @Test("a real round trip logs curl and response with status, time and size — and no secret in any line")
    func roundTrip() async throws {
        let lines = LogLines()
        let session = Session(transport: TestTransport.shared, logger: lines.logger())

        let body = try await CredentialedRequest().response(using: session)

        let events = lines.all
        #expect(events.count == 2)
        guard case .request(let request) = events.first, case .response(let response) = events.last else {
            Issue.record("expected request then response: \(events)")
            return
        }
        #expect(request.curlCommand.hasPrefix("curl -X POST '\(HTTPBin.baseURL.absoluteString)"))
        #expect(request.curlCommand.contains("/anything?flavour=***'"))
        #expect(request.curlCommand.contains("-H 'Authorization: ***'"))
        #expect(response.statusCode == 200)
        #expect(response.bodySize == body.count)
        #expect(response.elapsed > 0)
        // httpbin echoes every secret in its body: the body must not reach the log
        #expect(String(decoding: body, as: UTF8.self).contains("it-s3cret-t0ken"))
        for secret in CredentialedRequest.secrets {
            #expect(!lines.texts.contains { $0.contains(secret) }, "\(secret) leaked")
        }
    }

    @Test("a refused connection is logged as a failed response")
    func refused() async throws {
        let lines = LogLines()
        let session = Session(transport: TestTransport.shared, logger: lines.logger())
        var request = CredentialedRequest()
        request.base = try HTTPBin.refusedURL()

        do {
            _ = try await request.response(using: session)
            Issue.record("a refused connection succeeded")
        } catch {
            #expect(error.stage == .transport)
        }
        guard case .response(let response) = lines.all.last else {
            Issue.record("no response event: \(lines.all)")
            return
        }
        #expect(response.error?.hasPrefix("URLError ") == true)
        #expect(response.statusCode == nil)
    }
}
