import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

/// An interceptor made of a closure, for the tests below.
struct ClosureInterceptor: Interceptor {
    let body:
        @Sendable (URLRequest, RequestContext, @Sendable (URLRequest) async throws(RequestError) -> CallResponse)
            async throws -> CallResponse

    func intercept(
        _ urlRequest: URLRequest,
        context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        try await body(urlRequest, context, next)
    }
}

@Suite("The chain: what an interceptor may do, and how its errors are named")
struct CallChainTests {
    private func session(_ interceptors: [any Interceptor], answer: StubResponse = .success(body: "ok")) -> Session {
        Session(transport: StubTransport { _ in answer }, interceptors: interceptors)
    }

    @Test(
        "an error thrown before next returned is the request interceptors' stage; after, the response's, with the body")
    func errorStages() async throws {
        let before = ClosureInterceptor { _, _, _ in throw ProbeFailure(stage: "before") }
        let after = ClosureInterceptor { request, _, next in
            _ = try await next(request)
            throw ProbeFailure(stage: "after")
        }
        let early = await TextRequest().result(session: session([before]))
        #expect(early.errorValue?.stage == .requestInterceptor)
        let late = await TextRequest().result(session: session([after], answer: .success(status: 200, body: "seen")))
        guard case .responseInterceptorFailed(let error, let body, _, _)? = late.errorValue else {
            Issue.record("expected responseInterceptorFailed, got \(late)")
            return
        }
        #expect(error as? ProbeFailure == ProbeFailure(stage: "after"))
        #expect(body == Data("seen".utf8))
    }

    @Test("an error a link throws after next names the URL last sent, which a link after it may have changed")
    func errorNamesTheURLSent() async throws {
        let validator = ClosureInterceptor { request, _, next in
            _ = try await next(request)
            throw ProbeFailure(stage: "after")
        }
        let rewriter = ClosureInterceptor { request, _, next in
            var request = request
            var components = try #require(request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: true) })
            components.host = "mirror.example.test"
            request.url = components.url
            return try await next(request)
        }
        let result = await TextRequest().result(session: session([validator, rewriter]))
        #expect(result.errorValue?.stage == .responseValidation)
        #expect(result.errorValue?.context.url?.host == "mirror.example.test")
    }

    @Test("a RequestError an interceptor throws is the outcome as it is; an UnacceptableStatusCode is a status error")
    func requestErrorPassesThrough() async throws {
        let rethrowing = ClosureInterceptor { request, context, _ in
            throw RequestError.transportFailed(URLError(.notConnectedToInternet), context: context)
        }
        let result = await TextRequest().result(session: session([rethrowing]))
        #expect(result.errorValue?.stage == .transport)
        #expect((result.errorValue?.underlyingError as? URLError)?.code == .notConnectedToInternet)

        let rejecting = ClosureInterceptor { request, _, next in
            _ = try await next(request)
            throw UnacceptableStatusCode(statusCode: 200)
        }
        let rejected = await TextRequest().result(session: session([rejecting]))
        #expect(rejected.errorValue?.statusCode == 200)
        #expect(rejected.errorValue?.stage == .responseValidation)
    }

    @Test("a framing header an interceptor passes on fails the call, naming the interceptor; nothing is sent")
    func framingHeaderNamesTheLink() async throws {
        let sent = Locked(0)
        let framing = ClosureInterceptor { request, _, next in
            var request = request
            request.setValue("5", forHTTPHeaderField: "Content-Length")
            return try await next(request)
        }
        let transport = StubTransport { _ in
            sent.withLock { $0 += 1 }
            return .success(body: "ok")
        }
        let result = await TextRequest().result(session: Session(transport: transport, interceptors: [framing]))
        guard case .buildFailed(.framingHeader(let name, let source), _)? = result.errorValue else {
            Issue.record("expected a framing-header build error, got \(result)")
            return
        }
        #expect(name == "Content-Length")
        #expect(source == .interceptor("ClosureInterceptor"))
        #expect(sent.withLock { $0 } == 0)
    }

    @Test("an interceptor may call next twice; the context numbers each attempt")
    func nextTwice() async throws {
        let contexts = Protected<[Int]>([])
        let twice = ClosureInterceptor { request, _, next in
            _ = try await next(request)
            return try await next(request)
        }
        let recorder = ClosureInterceptor { request, context, next in
            contexts.append(context.attempts)
            return try await next(request)
        }
        let sends = Locked(0)
        let transport = StubTransport { _ in
            sends.withLock { $0 += 1 }
            return .success(body: "ok")
        }
        let session = Session(transport: transport, interceptors: [twice, recorder])
        #expect(try await TextRequest().result(session: session).get() == "ok")
        #expect(sends.withLock { $0 } == 2)
        #expect(contexts.value == [1, 2])
    }

    @Test(
        "a body stream of the caller's own is not sent again: a second pass fails with requestBodyStreamExhausted; APIKit's own body is"
    )
    func foreignBodyStreamIsNotResent() async throws {
        let sends = Locked(0)
        let transport = StubTransport { _ in
            sends.withLock { $0 += 1 }
            return .success(body: "ok")
        }
        let twice = ClosureInterceptor { request, _, next in
            _ = try await next(request)
            return try await next(request)
        }
        let foreign = ClosureInterceptor { request, _, next in
            var streamed = request
            streamed.httpMethod = "PUT"
            streamed.httpBodyStream = InputStream(data: Data("read once".utf8))
            return try await next(streamed)
        }
        let error = await TextRequest().result(session: Session(transport: transport, interceptors: [foreign, twice]))
            .errorValue
        #expect(
            (error?.underlyingError as? URLError)?.code == .requestBodyStreamExhausted, "\(String(describing: error))")
        #expect(error?.context.attempts == 2)
        #expect(sends.withLock { $0 } == 1, "the exhausted stream was sent again")

        // a body with a file is APIKit's stream: each pass gets a fresh one
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("part.bin", contents: Data("again".utf8))
        let own = ClosureInterceptor { request, _, next in
            var streamed = request
            streamed.httpMethod = "PUT"
            streamed.setRequestBody(RequestBody(segments: [.bytes(Data("a".utf8)), .file(file, size: 5)]))
            #expect(streamed.httpBodyStream != nil)
            return try await next(streamed)
        }
        let session = Session(transport: transport, interceptors: [own, twice])
        #expect(try await TextRequest().result(session: session).get() == "ok")
        #expect(sends.withLock { $0 } == 3)
    }

    @Test("a cache, a host limit and an attempt log written with the public API work over StubTransport")
    func publicInterceptors() async throws {
        let cache = MemoryCache()
        let attempts = AttemptLog()
        let session = Session(
            transport: StubTransport { request in .success(body: UUID().uuidString) },
            interceptors: [cache, attempts])
        let first = try await TextRequest().result(session: session).get()
        let second = try await TextRequest().result(session: session).get()
        var streamed = Data()
        for try await chunk in TextRequest().stream(using: session) { streamed.append(chunk) }
        #expect(first == second)
        #expect(String(decoding: streamed, as: UTF8.self) == first)
        #expect(attempts.entries.count == 1)
    }

    @Test("a host limit of 2 holds the third call until one of the first two ends, in order")
    func hostLimitHoldsCalls() async throws {
        let gate = HoldingTransport()
        let limit = HostLimit(limit: 2)
        let session = Session(transport: gate, interceptors: [limit])
        let calls = (0..<4).map { _ in Task { try await TextRequest().result(session: session).get() } }
        #expect(await gate.waitForHeld(2))
        // the other two wait in the limit, not in the transport
        #expect(await eventually { limit.waiting == 2 })
        #expect(gate.heldCount == 2)
        gate.releaseOne()
        #expect(await gate.waitForHeld(2), "a waiting call took the freed slot")
        gate.releaseAll(until: 4)
        for call in calls { #expect(try await call.value == "ok") }
        #expect(limit.mostInFlight == 2)
        #expect(gate.sent == 4)
    }

    @Test("a stream's head is read before its first chunk; onBodyEnd counts the bytes as they pass")
    func streamHeadAndBodyEnd() async throws {
        let ended = CompletionProbe<Result<Int, any Error>>()
        let observer = ClosureInterceptor { request, _, next in
            let response = try await next(request)
            #expect(response.data == nil, "a stream's body is never buffered for the chain")
            response.onBodyEnd { ended.record($0) }
            return response
        }
        let session = Session(
            transport: StubTransport { _ in .stream(headers: ["X-Kind": "chunks"], chunks: ["ab", "cde"]) },
            interceptors: [observer])
        var iterator = TextRequest().stream(using: session).makeAsyncIterator()
        let head = try #require(try await iterator.response() as? HTTPURLResponse)
        #expect(head.statusCode == 200)
        #expect(head.value(forHTTPHeaderField: "X-Kind") == "chunks")
        var body = Data()
        while let chunk = try await iterator.next() { body.append(chunk) }
        #expect(body == Data("abcde".utf8))
        #expect(try #require(await ended.first()).get() == 5)
    }
}

/// A transport that holds every send until the test releases it, counting what it holds.
final class HoldingTransport: Transport {
    private let state = Locked<(held: [@Sendable () -> Void], sent: Int)>(([], 0))
    private let arrivals = CompletionProbe<Int>()

    var heldCount: Int { state.withLock { $0.held.count } }
    var sent: Int { state.withLock { $0.sent } }

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let http = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
        let count = state.withLock { state in
            state.held.append { completion(.success(TransportResponse(data: Data("ok".utf8), urlResponse: http))) }
            state.sent += 1
            return state.held.count
        }
        arrivals.record(count)
        return HeldTask()
    }

    /// Waits until `count` sends are held at once.
    func waitForHeld(_ count: Int) async -> Bool {
        await eventually { self.heldCount >= count }
    }

    /// Answers the oldest held send.
    func releaseOne() {
        let first = state.withLock { state -> (@Sendable () -> Void)? in
            state.held.isEmpty ? nil : state.held.removeFirst()
        }
        first?()
    }

    /// Answers every send until `total` have been sent and answered.
    func releaseAll(until total: Int) {
        Task {
            while true {
                releaseOne()
                if sent >= total && heldCount == 0 { return }
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
        }
    }

    private struct HeldTask: TransportTask {
        func cancel() {}
    }
}
