import APIKit
import APIKitTestSupport
import APIKitTestTime
import Testing

/// httpbin's `/headers`: the request headers as the server received them.
struct HeadersRequest: JSONDecodableRequest, RequestConfiguration {
    struct Response: Decodable, Sendable {
        var headers: [String: String]

        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    @Header("X-Declared") var declared: String? = nil

    var base = HTTPBin.baseURL
    var path = "headers"
    var method: HTTPMethod = .get
    var configuration: Self { self }
}

/// httpbin's `/get`: the query arguments as the server decoded them.
struct GetArgsRequest: JSONDecodableRequest, RequestConfiguration {
    struct Response: Decodable, Sendable {
        /// A repeated key would be a list and fail to decode, so this also checks each key arrived once.
        var args: [String: String]
    }

    @Query("q") var query: String? = nil
    @Query("api_key") var apiKey: String? = nil

    var base = HTTPBin.baseURL
    var path = "get"
    var method: HTTPMethod = .get
    var configuration: Self { self }
}

/// Adds an API key header to every request, as a session-wide interceptor, and remembers the
/// status codes it saw.
struct APIKeyInterceptor: AdaptingInterceptor {
    let key: String
    let statuses = Protected<[Int]>([])

    func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
        var request = urlRequest
        request.setValue(key, forHTTPHeaderField: "X-Api-Key")
        return request
    }

    func inspect(_ urlResponse: URLResponse, data: Data, for context: RequestContext) async throws {
        let status = (urlResponse as? HTTPURLResponse)?.statusCode ?? 0
        statuses.withLock { $0.append(status) }
    }
}

/// Signals each time a request passes the session's interceptors, just before it is sent.
struct SignalOnAdapt: AdaptingInterceptor {
    let signal: AsyncStream<Void>.Continuation

    func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
        signal.yield()
        return urlRequest
    }
}

@Suite("Sessions and async/await over HTTP", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct SessionIntegrationTests {
    @Test(
        "try await response() returns the decoded response",
        .urlSessionOnly("Request.response()'s default: Session(), over URLSessionTransport.shared"))
    func asyncResponse() async throws {
        let echo = try await IndexedRequest(index: 7).response()
        #expect(echo.arg("i") == .one("7"))
        #expect(echo.method == "GET")
    }

    @Test("response() throws the status error with the body")
    func asyncStatusError() async throws {
        do {
            _ = try await StatusRequest(code: 418).response(using: Session(transport: TestTransport.shared))
            Issue.record("expected a status error")
        } catch {
            #expect(error.statusCode == 418)
            #expect(error.stage == .responseValidation)
        }
    }

    @Test("a session's interceptor and default headers reach the server; a declared header wins")
    func interceptorAddsHeader() async throws {
        let interceptor = APIKeyInterceptor(key: "k-123")
        let session = Session(
            transport: TestTransport.shared,
            defaultHeaders: ["X-Declared": "default", "X-Client": "APIKitTests"],
            interceptors: [interceptor]
        )

        let response = try await HeadersRequest(declared: "declared").response(using: session)

        #expect(response.header("X-Api-Key") == "k-123")
        #expect(response.header("X-Client") == "APIKitTests")
        #expect(response.header("X-Declared") == "declared")
        #expect(interceptor.statuses.withLock { $0 } == [200])
    }

    @Test("a session's default query items reach the server intact; a declared item wins")
    func defaultQueryItems() async throws {
        let items = ["api_key": "k+1 /é&=", "lang": "en"]
        let session = Session(transport: TestTransport.shared, defaultQueryItems: items)

        let response = try await GetArgsRequest(query: "cats & dogs").response(using: session)
        #expect(response.args == ["q": "cats & dogs", "api_key": "k+1 /é&=", "lang": "en"])

        let declared = try await GetArgsRequest(apiKey: "declared").response(using: session)
        #expect(declared.args == ["api_key": "declared", "lang": "en"])
    }

    @Test("cancelling the Task stops a slow request with .cancelled")
    func taskCancellation() async throws {
        // Cancel once the request is on its way (its last hook ran), not after a guessed
        // sleep: on a loaded machine the Task may not even have built the request by then.
        let (sent, signal) = AsyncStream<Void>.makeStream()
        let session = Session(transport: TestTransport.shared, interceptors: [SignalOnAdapt(signal: signal)])
        let task = Task { () async -> RequestError? in
            do throws(RequestError) {
                _ = try await DelayRequest(seconds: 8).response(using: session)
                return nil
            } catch {
                return error
            }
        }
        var iterator = sent.makeAsyncIterator()
        _ = await iterator.next()
        task.cancel()
        let error: RequestError = try #require(await task.value)
        #expect(error.stage == .cancelled)
        #expect(error.context.url?.path == "/delay/8")
    }

    @Test(
        "a finite timeout however large (days, centuries, the largest Double) is no timeout in practice: the call succeeds",
        arguments: [86_400 * 30, 1e10, 1e12, Double.greatestFiniteMagnitude] as [Double])
    func hugeTimeout(seconds: Double) async throws {
        let session = Session(transport: TestTransport.shared)
        let response = try await GetArgsRequest(query: "x").response(
            using: session, options: RequestOptions(timeout: seconds, resourceTimeout: seconds))
        #expect(response.args == ["q": "x"])
    }

    @Test("a per-call timeout overrides the default and fails the transfer")
    func perCallTimeout() async throws {
        let session = Session(transport: TestTransport.shared, options: RequestOptions(timeout: 30))
        do {
            _ = try await DelayRequest(seconds: 5).response(using: session, options: RequestOptions(timeout: 1))
            Issue.record("expected a timeout")
        } catch {
            #expect(error.stage == .transport)
            #expect((error.underlyingError as? URLError)?.code == .timedOut)
        }
    }
}
