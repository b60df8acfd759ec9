@_spi(Testing) import APIKit
import APIKitTestSupport
import APIKitTestTime
import Testing

/// httpbin's `/bearer`: 401 without `Authorization: Bearer …`, else the token echoed.
struct BearerRequest: JSONDecodableRequest, RequestConfiguration {
    struct Response: Decodable, Sendable {
        var authenticated: Bool
        var token: String
    }

    var base = HTTPBin.baseURL
    var path = "bearer"
    var method: HTTPMethod { .get }
    var configuration: Self { self }
}

/// Bearer tokens `token-1`, `token-2`…, counting the refreshes.
struct NumberedTokens: Authenticator {
    let refreshes = Protected(0)

    func apply(_ token: String, to urlRequest: inout URLRequest) throws {
        urlRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    }

    func refresh() async throws -> String {
        let number = refreshes.withLock { count in
            count += 1
            return count
        }
        return "token-\(number)"
    }
}

/// Counts the attempts that reach the transport (as the last interceptor's `adapt`).
struct AttemptCounter: AdaptingInterceptor {
    let count = Protected(0)

    func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
        count.withLock { $0 += 1 }
        return urlRequest
    }
}

/// A session's time that records its waits instead of sleeping, through the `@_spi(Testing)`
/// seam `Session.time` (an SPI import works here and when this suite is compiled inside the
/// AsyncHTTPClient package, where APIKit is a package dependency). Timers run in real time.
struct RecordingTime: TimeSource {
    let waits: Protected<[TimeInterval]>

    var now: Date { Date() }

    var uptime: TimeInterval { SystemTime().uptime }

    func sleep(for seconds: TimeInterval) async throws {
        waits.withLock { $0.append(seconds) }
    }

    func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) -> any ScheduledAction {
        SystemTime().schedule(after: seconds, action)
    }
}

extension Session {
    /// This session, recording the waits of its retries into `waits` instead of sleeping.
    func recordingWaits(into waits: Protected<[TimeInterval]>) -> Session {
        var session = self
        session.time = RecordingTime(waits: waits)
        return session
    }
}

struct HTTPBinFailure: Decodable, Sendable {
    let result: String
    let errors: [String]
}

@Suite("Retries, token refresh and error bodies over HTTP", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct ResilienceIntegrationTests {
    @Test("/bearer without a credential: 401, one refresh, the replay succeeds with token-1")
    func bearerRefresh() async throws {
        let tokens = NumberedTokens()
        let session = Session(transport: TestTransport.shared, credentialStore: CredentialStore(tokens))
        let response = try await BearerRequest().response(using: session)
        #expect(response.authenticated)
        #expect(response.token == "token-1")
        #expect(tokens.refreshes.withLock { $0 } == 1)
        // Later requests carry the new token at once.
        #expect(try await BearerRequest().response(using: session).token == "token-1")
        #expect(tokens.refreshes.withLock { $0 } == 1)
    }

    @Test("/bearer with 20 concurrent requests and no credential: one refresh, 20 successes")
    func bearerConcurrent() async throws {
        let tokens = NumberedTokens()
        let session = Session(transport: TestTransport.shared, credentialStore: CredentialStore(tokens))
        let tokensSeen = try await withThrowingTaskGroup(of: String.self) { group -> [String] in
            for _ in 0..<20 {
                group.addTask { try await BearerRequest().response(using: session).token }
            }
            var seen: [String] = []
            for try await token in group { seen.append(token) }
            return seen
        }
        #expect(tokensSeen == Array(repeating: "token-1", count: 20))
        #expect(tokens.refreshes.withLock { $0 } == 1)
    }

    @Test("/status/503 with the default policy: 3 attempts, the error says so")
    func retriedStatus() async throws {
        let waits = Protected<[TimeInterval]>([])
        let counter = AttemptCounter()
        let session = Session(transport: TestTransport.shared, interceptors: [counter], retryPolicy: RetryPolicy())
            .recordingWaits(into: waits)
        do {
            _ = try await StatusRequest(code: 503).response(using: session)
            Issue.record("expected a status error")
        } catch {
            #expect(error.statusCode == 503)
            #expect(error.context.attempts == 3)
            #expect(error.description.hasSuffix("after 3 attempts"))
        }
        #expect(counter.count.withLock { $0 } == 3)
        #expect(waits.withLock { $0.count } == 2)
    }

    @Test("a refused connection is retried, then reported as transportFailed after 3 attempts")
    func retriedConnection() async throws {
        let waits = Protected<[TimeInterval]>([])
        let base = try HTTPBin.refusedURL()
        let session = Session(transport: TestTransport.shared, retryPolicy: RetryPolicy()).recordingWaits(into: waits)
        do {
            _ = try await GetRequest(path: "anything", parser: RawDataParser(), base: base).response(using: session)
            Issue.record("expected a transport error")
        } catch {
            #expect(error.stage == .transport)
            #expect(error.context.attempts == 3)
        }
    }

    @Test("Retry-After set by the server is the wait before the retry")
    func retryAfterHeader() async throws {
        let waits = Protected<[TimeInterval]>([])
        let policy = RetryPolicy(maxAttempts: 2, retryableStatusCodes: [200])  // the 200 is retried
        let session = Session(transport: TestTransport.shared, retryPolicy: policy).recordingWaits(into: waits)
        let request = GetRequest(
            path: "response-headers", parser: RawDataParser(), base: HTTPBin.baseURL.appendingQuery("Retry-After=7"))
        _ = try await request.response(using: session)
        #expect(waits.withLock { $0 } == [7])
    }

    @Test("/status/418 with an error body decoder: does not decode, the raw bytes are kept")
    func undecodableBody() async throws {
        let session = Session(transport: TestTransport.shared, errorBodyDecoder: .json(HTTPBinFailure.self))
        do {
            _ = try await StatusRequest(code: 418).response(using: session)
            Issue.record("expected a status error")
        } catch {
            #expect(error.statusCode == 418)
            #expect(error.errorBody == nil)
            #expect(String(decoding: error.body ?? Data(), as: UTF8.self).contains("teapot"))
        }
    }
}

extension URL {
    /// The URL with `query` as its query string.
    fileprivate func appendingQuery(_ query: String) -> URL {
        var components = URLComponents(url: self, resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = query
        return components.url!
    }
}
