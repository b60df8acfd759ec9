import APIKit
import APIKitTestSupport
import APIKitTestTime
import Foundation
import Testing

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

        let texts = lines.all
        #expect(texts.count == 2)
        let request = try #require(LoggedRequestLine(texts[0]), "expected request then response: \(texts)")
        let response = try #require(LoggedResponseLine(texts[1]), "expected request then response: \(texts)")
        let url = request.url
        #expect(url.hasPrefix(HTTPBin.baseURL.absoluteString))
        #expect(url.hasSuffix("/anything?flavour=***"))
        #expect(request.line == "→ #\(request.id) POST \(url) (CredentialedRequest)")
        #expect(request.curlCommand.hasPrefix("curl -X POST '\(url)'"))
        #expect(request.curlCommand.contains("-H 'Authorization: ***'"))
        #expect(request.curlCommand.contains("-H 'Cookie: ***'"))
        #expect(request.curlCommand.contains("-H 'X-Api-Key: ***'"))
        #expect(response.answers(request))
        #expect(response.status == 200)
        #expect(response.bodySize == body.count)
        #expect(response.elapsed > 0)
        #expect(
            response.text
                == "← #\(request.id) 200 POST \(url) (CredentialedRequest) "
                + String(format: "%.3f s, %d bytes", response.elapsed, body.count))
        // httpbin echoes every secret in its body: the body must not reach the log
        #expect(String(decoding: body, as: UTF8.self).contains("it-s3cret-t0ken"))
        for secret in CredentialedRequest.secrets {
            #expect(!lines.all.contains { $0.contains(secret) }, "\(secret) leaked")
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
        #expect(lines.all.count == 2)
        let logged = try #require(lines.requests.first, "no request line: \(lines.all)")
        let response = try #require(lines.responses.last, "no response line: \(lines.all)")
        #expect(response.answers(logged))
        #expect(response.error?.hasPrefix("URLError ") == true)
        #expect(response.status == nil)
        #expect(response.text.hasPrefix("← #\(logged.id) failed POST "))
    }
}
