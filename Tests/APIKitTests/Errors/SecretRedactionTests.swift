import APIKit
import Foundation
import Testing

/// No header value, cookie, token, query value or body byte appears in what an error says
/// about itself, whichever stage failed.
@Suite("Errors never print secrets")
struct SecretRedactionTests {
    static let secret = "S3CRET-7f3c9a1e"

    struct LoginRequest: Request, RequestConfiguration {
        @Header("Authorization") var authorization: String? = "Bearer \(SecretRedactionTests.secret)"
        @Header("Cookie") var cookie: String? = "session=\(SecretRedactionTests.secret)"
        @Query("token") var token = SecretRedactionTests.secret
        @JSON("password") var password = SecretRedactionTests.secret

        var base = URL(string: "https://api.example.com/v1?key=\(SecretRedactionTests.secret)")!
        var path = "login"
        var method: HTTPMethod = .post
        var configuration: Self { self }
        var parser: JSONParser<[String: Int]> { JSONParser() }
    }

    struct BrokenHeader: Request, RequestConfiguration {
        @Header("X-Token") var token: String? = "\(SecretRedactionTests.secret)\r\nInjected: 1"
        var base = URL(string: "https://api.example.com")!
        var path = "x"
        var method: HTTPMethod = .get
        var configuration: Self { self }
        var parser: RawDataParser { RawDataParser() }
    }

    /// Everything an error can be printed as.
    func texts(of error: RequestError) -> [String] {
        [
            String(describing: error), String(reflecting: error), error.localizedDescription,
            error.errorDescription ?? "", String(describing: error.context), String(reflecting: error.context),
            (error as NSError).description,
        ]
    }

    func expectNoSecret(_ error: RequestError, _ stage: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for text in texts(of: error) {
            #expect(!text.contains(Self.secret), "\(stage): \(text)", sourceLocation: sourceLocation)
        }
    }

    func failure<R: Request>(_ request: R, answer: StubResponse) async -> RequestError? {
        do {
            _ = try await request.response(using: Session(transport: StubTransport { _ in answer }))
            return nil
        } catch {
            return error
        }
    }

    @Test("a build error does not print the header value at fault")
    func buildError() async throws {
        let error = try #require(await failure(BrokenHeader(), answer: .success(body: "{}")))
        #expect(error.stage == .build)
        expectNoSecret(error, "build")
    }

    @Test("transport, status, parsing and cancellation errors print neither headers, query values nor bodies")
    func laterStages() async throws {
        let secretBody = #"{"error": "bad password \#(Self.secret)"}"#
        let cookieHeaders = ["Set-Cookie": "session=\(Self.secret)", "X-Echo": Self.secret]
        let cases: [(String, StubResponse)] = [
            ("transport", .failure(URLError(.cannotConnectToHost))),
            ("status", .success(status: 401, headers: cookieHeaders, body: secretBody)),
            ("parsing", .success(status: 200, headers: cookieHeaders, body: "not json \(Self.secret)")),
        ]
        for (stage, answer) in cases {
            let error = try #require(await failure(LoginRequest(), answer: answer), "\(stage)")
            expectNoSecret(error, stage)
        }
    }
}
