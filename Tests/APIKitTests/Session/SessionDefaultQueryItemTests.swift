@_spi(Testing) import APIKitTestTime
import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

@Suite("Session: default query items")
struct SessionDefaultQueryItemTests {
    /// A request declaring the query items the tests collide with, and recording the URL its
    /// `intercept(urlRequest:)` sees.
    struct ItemsRequest: Request, RequestConfiguration {
        @Query("token") var token: String? = nil
        @Query("filter[kind]") var kind: String? = nil
        @KeyQuery("pretty") var pretty = false
        var base = stubBase
        var path = "items"
        var method: HTTPMethod = .get
        let seen = Locked<[URL?]>([])

        var configuration: Self { self }
        var parser: StringParser { StringParser() }

        func intercept(urlRequest: URLRequest) throws -> URLRequest {
            seen.withLock { $0.append(urlRequest.url) }
            return urlRequest
        }
    }

    /// The URL `request` is sent to through a session with `items`.
    func sentURL(_ request: ItemsRequest = ItemsRequest(), items: [String: String]) async throws -> String {
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let session = Session(transport: transport, defaultQueryItems: items)
        _ = try await request.response(using: session)
        return try #require(transport.sentRequests.first?.url?.absoluteString)
    }

    @Test("appended after the request's own items, sorted by key like @QueryDict")
    func appendedSorted() async throws {
        var request = ItemsRequest()
        request.token = "t1"
        let url = try await sentURL(request, items: ["b": "2", "api_key": "k-123", "a": "1"])
        #expect(url == "https://api.example.test/v1/items?token=t1&a=1&api_key=k-123&b=2")
        #expect(try await sentURL(items: ["api_key": "k-123"]) == "https://api.example.test/v1/items?api_key=k-123")
    }

    @Test("an item the request declares wins; names compare exactly, after percent-decoding")
    func requestWins() async throws {
        var request = ItemsRequest()
        request.token = "declared"
        request.kind = "gif"
        request.pretty = true
        let url = try await sentURL(
            request,
            items: ["token": "default", "filter[kind]": "default", "pretty": "default", "Token": "other"]
        )
        #expect(url == "https://api.example.test/v1/items?token=declared&filter%5Bkind%5D=gif&pretty&Token=other")
    }

    @Test("a declared item whose value is nil is not sent, so the default is")
    func nilDeclaredGetsDefault() async throws {
        #expect(try await sentURL(items: ["token": "default"]) == "https://api.example.test/v1/items?token=default")
    }

    @Test("an item in the request's base wins too")
    func baseQueryWins() async throws {
        var request = ItemsRequest()
        request.base = URL(string: "https://api.example.test/v1?api_key=from-base&v=2")!
        let url = try await sentURL(request, items: ["api_key": "default", "lang": "en"])
        #expect(url == "https://api.example.test/v1/items?api_key=from-base&v=2&lang=en")
    }

    @Test("a fragment stays at the end")
    func fragmentKept() async throws {
        var request = ItemsRequest()
        request.base = URL(string: "https://api.example.test/v1?v=2#top")!
        request.token = "t"
        let url = try await sentURL(request, items: ["api_key": "k"])
        #expect(url == "https://api.example.test/v1/items?v=2&token=t&api_key=k#top")

        var noQuery = ItemsRequest()
        noQuery.base = URL(string: "https://api.example.test/v1#top")!
        #expect(
            try await sentURL(noQuery, items: ["api_key": "k"]) == "https://api.example.test/v1/items?api_key=k#top")
    }

    @Test(
        "keys and values are percent-encoded exactly as @Query writes them",
        arguments: ["a+b c", "x/y?z&w=v#f", "100%", "Grüße 日本 🙂", "tab\tline\nend", "'!*();:@$,[]"]
    )
    func encodedLikeQuery(value: String) async throws {
        struct Declared: Request, RequestConfiguration {
            @Query("key with+plus") var value = ""
            var base = stubBase
            var path = "items"
            var method: HTTPMethod = .get
            var configuration: Self { self }
            var parser: StringParser { StringParser() }
        }
        let declared = try Declared(value: value).makeURLRequest().url?.absoluteString

        let url = try await sentURL(items: ["key with+plus": value])

        #expect(url == declared)
        #expect(url.hasPrefix("https://api.example.test/v1/items?key%20with%2Bplus="))
        let sent = try #require(URLComponents(string: url)?.queryItems?.first)
        #expect(sent.name == "key with+plus")
        #expect(sent.value == value)
    }

    @Test("+ is %2B and a space %20, never a form-style +")
    func plusAndSpace() async throws {
        #expect(try await sentURL(items: ["q": "a+b c"]) == "https://api.example.test/v1/items?q=a%2Bb%20c")
    }

    @Test("an empty dictionary changes nothing")
    func emptyChangesNothing() async throws {
        var request = ItemsRequest()
        request.base = URL(string: "https://api.example.test/v1?v=2#top")!
        request.token = "t"
        let built = try request.makeURLRequest().url?.absoluteString
        #expect(try await sentURL(request, items: [:]) == built)
    }

    @Test("all names already declared: the URL is left exactly as built")
    func allDeclared() async throws {
        var request = ItemsRequest()
        request.base = URL(string: "https://api.example.test/v1?#top")!
        request.token = "t"
        let built = try request.makeURLRequest().url?.absoluteString
        #expect(try await sentURL(request, items: ["token": "default"]) == built)
    }

    @Test("intercept(urlRequest:) and every interceptor see the items; the transport sends them once")
    func seenByInterceptors() async throws {
        let log = EventLog()
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let session = Session(
            transport: transport,
            defaultQueryItems: ["api_key": "k"],
            interceptors: [URLRecorder(log: log)]
        )
        let request = ItemsRequest()

        _ = try await request.response(using: session)

        let expected = "https://api.example.test/v1/items?api_key=k"
        #expect(request.seen.withLock { $0 }.map { $0?.absoluteString } == [expected])
        #expect(log.names == ["adapt \(expected)"])
        #expect(transport.sentRequests.map { $0.url?.absoluteString } == [expected])
    }

    @Test("the completion API adds them the same way")
    func completionAPI() async throws {
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let session = Session(transport: transport, defaultQueryItems: ["api_key": "k"])

        let (result, _) = await session.performProbed(ItemsRequest())

        _ = try #require(result).get()
        #expect(transport.sentRequests.first?.url?.absoluteString == "https://api.example.test/v1/items?api_key=k")
    }

    @Test("each retry attempt carries the items once")
    func retriesRebuild() async throws {
        let attempts = Locked(0)
        let transport = RecordingTransport(
            StubTransport { _ in
                attempts.withLock { $0 += 1 }
                return attempts.withLock { $0 } < 3 ? .success(status: 503) : .success(body: "ok")
            })
        let session = Session(transport: transport, defaultQueryItems: ["api_key": "k"], retryPolicy: RetryPolicy())
            .timed(by: WaitRecorder())

        #expect(try await ItemsRequest().response(using: session) == "ok")

        let urls = transport.sentRequests.map { $0.url?.absoluteString }
        #expect(urls == Array(repeating: "https://api.example.test/v1/items?api_key=k", count: 3))
    }

    @Test("an empty key fails every request as .buildFailed(.emptyQueryKey) naming Session.defaultQueryItems")
    func emptyKeyFails() async throws {
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let session = Session(transport: transport, defaultQueryItems: ["": "secret-value", "api_key": "k"])

        let result = await ItemsRequest().result(session: session)

        guard case .buildFailed(let buildError, let context) = try #require(result.errorValue) else {
            Issue.record("expected .buildFailed, got \(String(describing: result.errorValue))")
            return
        }
        guard case .emptyQueryKey(let field) = buildError else {
            Issue.record("expected .emptyQueryKey, got \(buildError)")
            return
        }
        #expect(field == "Session.defaultQueryItems")
        #expect(buildError.fields == ["Session.defaultQueryItems"])
        #expect("\(buildError)".contains("Session.defaultQueryItems"))
        #expect(!"\(buildError)".contains("secret-value"))
        #expect(!"\(try #require(result.errorValue))".contains("secret-value"))
        #expect(context.url == nil)
        #expect(transport.sentRequests.isEmpty)
    }

    @Test("the values are redacted in RequestContext and in errors, like every query value")
    func redactedInErrors() async throws {
        let secret = "s3cr3t-key"
        let session = Session(
            transport: StubTransport { _ in .success(status: 404, body: "missing") },
            defaultQueryItems: ["api_key": secret]
        )

        let result = await ItemsRequest().result(session: session)

        let error = try #require(result.errorValue)
        #expect(error.statusCode == 404)
        #expect(error.context.url?.absoluteString.contains(secret) == true)  // the real URL is kept
        #expect(error.context.description.contains("api_key=***"))
        for text in [error.context.description, String(describing: error), error.localizedDescription] {
            #expect(!text.contains(secret), "\(text)")
        }
    }

    @Test("the values are redacted in logs unless LogPrivacy reveals query values")
    func redactedInLogs() async throws {
        let secret = "s3cr3t-key"
        let lines = LogLines()
        let session = Session(
            transport: StubTransport { _ in .success(body: "ok") },
            defaultQueryItems: ["api_key": secret],
            logger: lines.logger()
        )

        _ = try await ItemsRequest().response(using: session)

        let logged = try #require(lines.requests.first)
        #expect(logged.url.contains("api_key=***"))
        #expect(logged.curlCommand.contains("api_key=***"))
        #expect(lines.all.count == 2)
        #expect(!lines.all.contains { $0.contains(secret) })

        let revealing = LogLines()
        var open = session
        open.logger = revealing.logger(LogPrivacy(revealsQueryValues: true))
        _ = try await ItemsRequest().response(using: open)
        #expect(try #require(revealing.requests.first).url.contains("api_key=\(secret)"))
    }

    @Test("a Session is a value: changing a copy's items leaves the original alone")
    func valueSemantics() {
        let original = Session(defaultQueryItems: ["a": "1"])
        var copy = original
        copy.defaultQueryItems["b"] = "2"
        #expect(original.defaultQueryItems == ["a": "1"])
        #expect(copy.defaultQueryItems == ["a": "1", "b": "2"])
        #expect(Session().defaultQueryItems.isEmpty)
    }
}

/// Logs `adapt <url>` for each request it adapts.
private struct URLRecorder: AdaptingInterceptor {
    let log: EventLog

    func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
        log.append("adapt \(urlRequest.url?.absoluteString ?? "nil")")
        return urlRequest
    }
}
