@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

/// The examples of the DocC articles "Retries and credentials" (Retrying, Refreshing tokens) and
/// "Handling errors" (Error bodies), compiled and run against stubs that answer like httpbin (the
/// integration tests run them against httpbin). Change them together with the articles.
@Suite("Articles: retrying, refreshing tokens, error bodies")
struct ResilienceArticleTests {
    struct Flaky: Request, RequestConfiguration {
        var base = URL(string: "https://httpbin.org")!
        var path = "status/503"
        var method: HTTPMethod { .get }
        var parser: StringParser { StringParser() }
    }

    @Test("Retrying: 3 attempts, the description says so")
    func retrying() async throws {
        var policy = RetryPolicy()
        policy.backoff = RetryPolicy.Backoff(baseDelay: 0.2, multiplier: 2, maxDelay: 2)
        let api = Session(transport: StubTransport { _ in .success(status: 503) }, retryPolicy: policy)
            .timed(by: WaitRecorder())  // not in the article: the test does not wait
        do {
            _ = try await Flaky().response(using: api)
            Issue.record("expected an error")
        } catch {
            #expect(error.context.attempts == 3)
            #expect(
                error.description
                    == "GET https://httpbin.org/status/503 (Flaky): server answered with status code 503 (0 body bytes) after 3 attempts"
            )
        }
    }

    struct BearerCheck: JSONDecodableRequest, RequestConfiguration {
        struct Response: Decodable { var authenticated: Bool; var token: String }
        var base = URL(string: "https://httpbin.org")!
        var path = "bearer"
        var method: HTTPMethod { .get }
    }

    struct Tokens: Authenticator {
        func apply(_ token: String, to urlRequest: inout URLRequest) throws {
            urlRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }

        func refresh() async throws -> String {
            "token-1"
        }
    }

    /// httpbin's `/bearer`.
    static let bearer = StubTransport { request in
        guard let header = request.headerValue("Authorization"), header.hasPrefix("Bearer ") else {
            return .success(status: 401)
        }
        return .success(body: #"{"authenticated": true, "token": "\#(header.dropFirst(7))"}"#)
    }

    @Test("Refreshing tokens: 401, one refresh, replayed with token-1")
    func refreshing() async throws {
        let api = Session(transport: Self.bearer, credentialStore: CredentialStore(Tokens(), credential: nil))
        let check = try await BearerCheck().response(using: api)
        #expect(check.token == "token-1")
        #expect(check.authenticated)
    }

    struct Login: Request, RequestConfiguration {
        var base = URL(string: "https://api.example.com/v1")!
        var path = "login"
        var method: HTTPMethod { .post }
        var parser: StringParser { StringParser() }
    }

    @Test("Error bodies: the payload decoded, the case unchanged, the bytes kept")
    func errorBodies() async throws {
        let stub = StubTransport { _ in
            .success(status: 422, body: #"{"result": "error", "errors": ["password too short"]}"#)
        }
        let api = Session(transport: stub, errorBodyDecoder: .json(APIFailure.self))
        do {
            _ = try await Login().response(using: api)
            Issue.record("expected an error")
        } catch {
            guard case .unacceptableStatusCode(422, let body, _, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect((error.errorBody as? APIFailure)?.errors == ["password too short"])
            #expect(body.count == 53)
        }
    }
}
