import APIKitTestSupport
import APIKitTestTime
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

/// A GET of `path` on the stub base; the stub decides what comes back.
struct StreamedRequest: Request, RequestConfiguration {
    var base = stubBase
    var path = "events"
    var method: HTTPMethod { .get }
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
}

/// Adds a header, and records the status of each response head it is shown with its body size.
final class StreamInterceptor: AdaptingInterceptor {
    let inspected = Protected<[String]>([])

    func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
        var adapted = urlRequest
        adapted.setValue("yes", forHTTPHeaderField: "X-Adapted")
        return adapted
    }

    func inspect(_ urlResponse: URLResponse, data: Data, for context: RequestContext) async throws {
        let status = (urlResponse as? HTTPURLResponse)?.statusCode ?? 0
        inspected.append("\(status) \(data.count)")
    }
}

struct StreamFailure: Decodable, Sendable, Equatable {
    let error: String
}

struct Tick: Decodable, Sendable, Equatable {
    let n: Int
}

@Suite("ResponseStream: a body read while it arrives, through the session's pipeline")
struct ResponseStreamTests {
    func session(_ stub: StubResponse, interceptors: [any Interceptor] = []) -> Session {
        Session(transport: StubTransport { _ in stub }, interceptors: interceptors)
    }

    @Test("chunks arrive in order, as the transport delivered them")
    func chunksInOrder() async throws {
        let session = session(.stream(chunks: ["a", "bc", "def"], interval: 0.01))
        var chunks: [String] = []
        for try await chunk in StreamedRequest().stream(using: session) {
            chunks.append(String(decoding: chunk, as: UTF8.self))
        }
        #expect(chunks == ["a", "bc", "def"])
    }

    @Test("the first chunk is handed over while the body has not ended")
    func firstChunkEarly() async throws {
        let transport = ManualTransport(initial: [.response(ManualTransport.ok), .data(Data("first".utf8))])
        var iterator = StreamedRequest().stream(using: Session(transport: transport)).makeAsyncIterator()
        // the transport has sent neither the rest nor the end: a stream that waited would hang
        #expect(try await iterator.next() == Data("first".utf8))
        transport.push([.data(Data("second".utf8)), .finished])
        #expect(try await iterator.next() == Data("second".utf8))
        #expect(try await iterator.next() == nil)
    }

    @Test("each iteration sends the request once, prepared like perform (intercept, adapt)")
    func preparedOnce() async throws {
        let seen = Protected<[URLRequest]>([])
        let interceptor = StreamInterceptor()
        let stub = StubTransport { request in
            seen.append(request)
            return .stream(chunks: ["x"])
        }
        let session = Session(transport: stub, defaultHeaders: ["X-Default": "1"], interceptors: [interceptor])
        let stream = StreamedRequest().stream(using: session)
        #expect(seen.value.isEmpty)
        for try await _ in stream {}
        for try await _ in stream {}
        #expect(seen.value.count == 2)
        #expect(seen.value.first?.headerValue("X-Adapted") == "yes")
        #expect(seen.value.first?.headerValue("X-Default") == "1")
        #expect(interceptor.inspected.value == ["200 0", "200 0"])
    }

    @Test("lines are split across chunk boundaries, CR/LF/CRLF alike, the last without a terminator")
    func lines() async throws {
        let session = session(.stream(chunks: ["one\r", "\ntw", "o\nthree\rfo", "ur"], interval: 0.005))
        var lines: [String] = []
        for try await line in StreamedRequest().stream(using: session).lines { lines.append(line) }
        #expect(lines == ["one", "two", "three", "four"])
    }

    @Test("JSON lines decode as they arrive")
    func jsonLines() async throws {
        let session = session(.stream(chunks: [#"{"n":1}"#, "\n{\"n\"", ":2}\n\n", #"{"n":3}"#], interval: 0.005))
        var ticks: [Tick] = []
        for try await tick in StreamedRequest().stream(using: session).jsonLines(of: Tick.self) { ticks.append(tick) }
        #expect(ticks == [Tick(n: 1), Tick(n: 2), Tick(n: 3)])
    }

    @Test("a JSON line that does not decode throws parsingFailed with the ResponseStreamError")
    func jsonLineFails() async throws {
        let session = session(.stream(chunks: [#"{"n":1}"# + "\n", "nope\n", #"{"n":3}"# + "\n"], interval: 0.005))
        var ticks: [Tick] = []
        let error = await #expect(throws: RequestError.self) {
            for try await tick in StreamedRequest().stream(using: session).jsonLines(of: Tick.self) {
                ticks.append(tick)
            }
        }
        #expect(ticks == [Tick(n: 1)])
        #expect(error?.stage == .parsing)
        guard case .invalidJSONLine(let number, _, _)? = error?.underlyingError as? ResponseStreamError else {
            Issue.record("expected invalidJSONLine, got \(String(describing: error))")
            return
        }
        #expect(number == 2)
    }

    @Test(
        "a last JSON line, without its line end, that does not decode throws parsingFailed with the head, not a cancellation"
    )
    func lastJSONLineFails() async throws {
        let body = Array((#"{"n":1}"# + "\n" + #"{"n":"#).utf8)
        // split in two at every byte, and byte by byte: the same outcome
        let chunkings =
            (0...body.count).map { [Array(body[..<$0]), Array(body[$0...])].filter { !$0.isEmpty } }
            + [body.map { [$0] }]
        for chunks in chunkings {
            let split = "chunks \(chunks.map(\.count))"
            let session = session(.stream(chunks: chunks.map { Data($0) }))
            var ticks: [Tick] = []
            let error = await #expect(throws: RequestError.self, "\(split)") {
                for try await tick in StreamedRequest().stream(using: session).jsonLines(of: Tick.self) {
                    ticks.append(tick)
                }
            }
            #expect(ticks == [Tick(n: 1)], "\(split)")
            #expect(error?.stage == .parsing, "\(split): \(String(describing: error))")
            #expect(error?.statusCode == 200, "\(split)")
            #expect(error?.context.url != nil, "\(split)")
            guard case .invalidJSONLine(let number, _, _)? = error?.underlyingError as? ResponseStreamError else {
                Issue.record("\(split): expected invalidJSONLine, got \(String(describing: error))")
                return
            }
            #expect(number == 2, "\(split)")
        }
    }

    @Test("server-sent events are read per the EventSource rules, split anywhere")
    func serverSentEvents() async throws {
        let session = session(
            .stream(
                chunks: ["\u{FEFF}: hi\n\nid: 1\nevent: tick\nda", "ta: a\ndata: b\n\r\n", "data: c\n\n"],
                interval: 0.005))
        var events: [ServerSentEvent] = []
        for try await event in StreamedRequest().stream(using: session).serverSentEvents { events.append(event) }
        #expect(
            events == [
                ServerSentEvent(event: "tick", data: "a\nb", id: "1", retry: nil),
                ServerSentEvent(event: "message", data: "c", id: "1", retry: nil),
            ])
    }

    @Test("each decoded view gives the response head before its first element, and nil once it has ended")
    func decodedViewsHead() async throws {
        let stub = StubResponse.stream(
            headers: ["X-Kind": "decoded"], chunks: [#"{"n":1}"# + "\n", "data: a\n\n"], interval: 0.005)
        let stream = StreamedRequest().stream(using: session(stub))
        func check<Element>(_ view: DecodedResponseStream<Element>, yields count: Int) async throws {
            var iterator = view.makeAsyncIterator()
            let head = try await iterator.response() as? HTTPURLResponse
            #expect(head?.value(forHTTPHeaderField: "X-Kind") == "decoded")
            var elements = 0
            while try await iterator.next() != nil { elements += 1 }
            #expect(elements == count)
            #expect(try await iterator.response() == nil)
        }
        try await check(stream.lines, yields: 3)
        try await check(stream.serverSentEvents, yields: 1)
        // JSON lines read a body of JSON only
        let onlyJSON = StreamedRequest().stream(
            using: session(.stream(headers: ["X-Kind": "decoded"], chunks: [#"{"n":1}"#])))
        try await check(onlyJSON.jsonLines(of: Tick.self), yields: 1)
    }

    @Test("a decoded view whose transfer fails mid-body: the elements before, then transportFailed, then the end")
    func decodedViewTransportFails() async throws {
        let transport = ScriptedStreamTransport([
            [
                .response(ScriptedStreamTransport.head(contentType: "text/plain")), .data(Data("one\ntw".utf8)),
                .failed(URLError(.networkConnectionLost)),
            ]
        ])
        var iterator = StreamedRequest().stream(using: Session(transport: transport)).lines.makeAsyncIterator()
        #expect(try await iterator.next() == "one")
        let error = await #expect(throws: RequestError.self) { _ = try await iterator.next() }
        guard case .transportFailed(let underlying as URLError, _)? = error else {
            Issue.record("expected transportFailed, got \(String(describing: error))")
            return
        }
        #expect(underlying.code == .networkConnectionLost)
        #expect(try await iterator.next() == nil)
        #expect(transport.requests.count == 1)
    }

    @Test("a rejected status throws before the first element, with the body and the error body decoded")
    func statusBeforeFirstElement() async throws {
        let interceptor = StreamInterceptor()
        var session = session(
            .stream(status: 404, chunks: [#"{"error":"#, #""no such stream"}"#], interval: 0.01),
            interceptors: [interceptor])
        session.errorBodyDecoder = .json(StreamFailure.self)
        var elements = 0
        let error = await #expect(throws: RequestError.self) {
            for try await _ in StreamedRequest().stream(using: session) { elements += 1 }
        }
        #expect(elements == 0)
        guard case .unacceptableStatusCode(404, let body, _, _)? = error else {
            Issue.record("expected unacceptableStatusCode(404), got \(String(describing: error))")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == #"{"error":"no such stream"}"#)
        #expect((error?.errorBody as? StreamFailure) == StreamFailure(error: "no such stream"))
        // the chain sees the head before the body is read: no body for an interceptor
        #expect(interceptor.inspected.value == ["404 0"])
    }

    @Test(
        "a transport that breaks the order (body bytes or the end before the head) fails with badServerResponse",
        arguments: [
            [TransportStreamEvent.data(Data("early".utf8)), .response(ManualTransport.ok), .finished],
            [TransportStreamEvent.finished],
        ])
    func eventsBeforeHead(events: [TransportStreamEvent]) async throws {
        let transport = ManualTransport(initial: events)
        var iterator = StreamedRequest().stream(using: Session(transport: transport)).makeAsyncIterator()
        let error = await #expect(throws: RequestError.self) { _ = try await iterator.next() }
        guard case .transportFailed(let underlying, _)? = error else {
            Issue.record("expected transportFailed, got \(String(describing: error))")
            return
        }
        #expect((underlying as? URLError)?.code == .badServerResponse)
        #expect(try await iterator.next() == nil)
    }

    @Test("a rejected stream's error body is cut at 1 MiB and its transfer cancelled")
    func errorBodyCut() async throws {
        let rejected = HTTPURLResponse(url: stubBase, statusCode: 500, httpVersion: "HTTP/1.1", headerFields: [:])!
        let chunk = Data(repeating: 0x61, count: 300 << 10)
        // 4 × 300 KiB: the fourth chunk passes 1 MiB; the rest never reaches the error
        let transport = ManualTransport(initial: [.response(rejected)] + Array(repeating: .data(chunk), count: 4))
        let error = await #expect(throws: RequestError.self) {
            for try await _ in StreamedRequest().stream(using: Session(transport: transport)) {}
        }
        guard case .unacceptableStatusCode(500, let body, _, _)? = error else {
            Issue.record("expected unacceptableStatusCode(500), got \(String(describing: error))")
            return
        }
        #expect(body.count == 1 << 20)
        #expect(body.allSatisfy { $0 == 0x61 })
        #expect(transport.cancels == 1)
    }

    @Test("the same status error as response(for:) gives")
    func sameErrorAsPerform() async throws {
        let session = session(.stream(status: 500, chunks: ["boom"]))
        var streamed: RequestError?
        do {
            for try await _ in StreamedRequest().stream(using: session) {}
        } catch {
            streamed = error
        }
        var performed: RequestError?
        do {
            _ = try await StreamedRequest().response(using: session)
        } catch {
            performed = error
        }
        #expect(streamed?.description == performed?.description)
        #expect(streamed?.body == performed?.body)
    }

    @Test("a transport failure before the response is transportFailed")
    func transportFailure() async throws {
        let session = session(.failure(URLError(.cannotConnectToHost)))
        let error = await #expect(throws: RequestError.self) {
            for try await _ in StreamedRequest().stream(using: session) {}
        }
        #expect(error?.stage == .transport)
        #expect((error?.underlyingError as? URLError)?.code == .cannotConnectToHost)
    }

    @Test("a build error is thrown on the first next(), before anything is sent")
    func buildFailure() async throws {
        let session = Session(
            transport: StubTransport { _ in .stream(chunks: ["x"]) }, defaultHeaders: ["Bad\nName": "1"])
        let error = await #expect(throws: RequestError.self) {
            for try await _ in StreamedRequest().stream(using: session) {}
        }
        #expect(error?.stage == .build)
    }

    @Test("breaking out of the loop cancels the transfer, once")
    func breakCancels() async throws {
        let transport = ManualTransport(initial: [.response(ManualTransport.ok), .data(Data("a".utf8))])
        for try await _ in StreamedRequest().stream(using: Session(transport: transport)) { break }
        #expect(transport.cancels == 1)
    }

    @Test("cancelling the consuming task cancels the transfer and throws cancelled, once")
    func taskCancellation() async throws {
        let transport = ManualTransport(initial: [.response(ManualTransport.ok), .data(Data("a".utf8))])
        let session = Session(transport: transport)
        let first = AsyncStream<Void>.makeStream()
        let consumer = Task { () async throws -> Int in
            var count = 0
            for try await _ in StreamedRequest().stream(using: session) {
                count += 1
                first.continuation.yield()
            }
            return count
        }
        for await _ in first.stream { break }
        consumer.cancel()
        let result = await consumer.result
        guard case .failure(let error) = result, case .cancelled? = error as? RequestError else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        #expect(transport.cancels == 1)
    }

    @Test("a consumer that falls behind past the buffer limit gets the buffered chunks, then bufferLimitExceeded")
    func bufferLimit() async throws {
        let chunk = Data(repeating: 0x78, count: 100)
        let transport = ManualTransport(initial: [.response(ManualTransport.ok), .data(chunk)])
        var iterator = StreamedRequest().stream(using: Session(transport: transport), maximumBufferSize: 350)
            .makeAsyncIterator()
        #expect(try await iterator.next() == chunk)
        // nobody is waiting now: 300 bytes fit, the fourth chunk would pass 350
        transport.push(Array(repeating: .data(chunk), count: 5))
        #expect(transport.cancels == 1)
        var received = 0
        do {
            while try await iterator.next() != nil { received += 1 }
            Issue.record("expected bufferLimitExceeded")
        } catch {
            #expect(error.stage == .transport)
            guard case .bufferLimitExceeded(let limit)? = error.underlyingError as? ResponseStreamError else {
                Issue.record("expected bufferLimitExceeded, got \(error)")
                return
            }
            #expect(limit == 350)
        }
        #expect(received == 3)
        #expect(try await iterator.next() == nil)
    }

    @Test(
        "a buffer size below 1 fails the first read with a BuildError naming it; nothing is sent",
        arguments: [0, -1, Int.min])
    func invalidBufferSize(size: Int) async throws {
        let transport = ScriptedStreamTransport([])
        var iterator = StreamedRequest().stream(using: Session(transport: transport), maximumBufferSize: size)
            .makeAsyncIterator()
        let error = await #expect(throws: RequestError.self) { _ = try await iterator.next() }
        guard case .buildFailed(.invalidBufferSize(let named), _) = error else {
            Issue.record("expected .buildFailed(.invalidBufferSize), got \(String(describing: error))")
            return
        }
        #expect(named == size)
        #expect(error?.description.contains("maximumBufferSize \(size) is below 1 byte") == true)
        #expect(try await iterator.next() == nil)  // ended after its error
        #expect(transport.requests.isEmpty)
    }

    @Test("a buffer of 1 byte takes a 1-byte chunk")
    func smallestBufferSize() async throws {
        let chunk = Data([0x78])
        let transport = ManualTransport(initial: [.response(ManualTransport.ok), .data(chunk), .finished])
        var iterator = StreamedRequest().stream(using: Session(transport: transport), maximumBufferSize: 1)
            .makeAsyncIterator()
        #expect(try await iterator.next() == chunk)
        #expect(try await iterator.next() == nil)
    }

    @Test("Request.stream(using:) is the session's stream")
    func requestConvenience() async throws {
        let session = session(.stream(chunks: ["a", "b"]))
        var text = ""
        for try await chunk in StreamedRequest().stream(using: session) {
            text += String(decoding: chunk, as: UTF8.self)
        }
        #expect(text == "ab")
    }

    @Test("a transport with only send still streams, the body as one chunk")
    func sendOnlyTransport() async throws {
        let transport = SendOnlyStub(base: StubTransport { _ in .stream(chunks: ["a\n", "b\n"]) })
        var lines: [String] = []
        for try await line in StreamedRequest().stream(using: Session(transport: transport)).lines {
            lines.append(line)
        }
        #expect(lines == ["a", "b"])
    }
}

/// A transport over a stub that reports when a transfer is cancelled.
struct ObservedTransport: Transport {
    let base: StubTransport
    let onCancel: @Sendable () -> Void

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        ObservedTask(base: base.send(request, progress: progress, completion: completion), onCancel: onCancel)
    }

    func stream(
        _ request: URLRequest,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> any TransportTask {
        ObservedTask(base: base.stream(request, onEvent: onEvent), onCancel: onCancel)
    }
}

/// A transport that only implements `send`: it streams through the protocol's default.
struct SendOnlyStub: Transport {
    let base: StubTransport

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        base.send(request, progress: progress, completion: completion)
    }
}

/// A transport whose stream the test drives: `initial` events at once (asynchronously), the
/// rest when the test pushes them; a cancellation is counted and ends the events with
/// `URLError(.cancelled)`, as a real transport would.
final class ManualTransport: Transport {
    static let ok = HTTPURLResponse(url: stubBase, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!

    private let initial: [TransportStreamEvent]
    private let queue = DispatchQueue(label: "ManualTransport")
    private let state = Protected<(onEvent: (@Sendable (TransportStreamEvent) -> Void)?, cancels: Int)>((nil, 0))

    init(initial: [TransportStreamEvent]) {
        self.initial = initial
    }

    /// How many times the transfer was cancelled.
    var cancels: Int { state.value.cancels }

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        queue.async { completion(.failure(URLError(.unsupportedURL))) }
        return ManualTask(transport: self)
    }

    func stream(
        _ request: URLRequest,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> any TransportTask {
        state.withLock { $0.onEvent = onEvent }
        queue.async { [initial] in initial.forEach(onEvent) }
        return ManualTask(transport: self)
    }

    /// Delivers `events`; when this returns, the stream has received them.
    func push(_ events: [TransportStreamEvent]) {
        let onEvent = state.value.onEvent
        queue.sync { events.forEach { onEvent?($0) } }
    }

    fileprivate func cancel() {
        let onEvent = state.withLock { state in
            state.cancels += 1
            defer { state.onEvent = nil }
            return state.onEvent
        }
        queue.async { onEvent?(.failed(URLError(.cancelled))) }
    }
}

private struct ManualTask: TransportTask {
    let transport: ManualTransport

    func cancel() { transport.cancel() }
}

struct ObservedTask: TransportTask {
    let base: any TransportTask
    let onCancel: @Sendable () -> Void

    func cancel() {
        onCancel()
        base.cancel()
    }
}

@Suite("ResponseStream: the session's logger")
struct ResponseStreamLoggingTests {
    @Test("a stream logs its request when sent and its response, with the bytes streamed, when the body ends")
    func logged() async throws {
        let lines = LogLines()
        let session = Session(
            transport: StubTransport { _ in .stream(chunks: ["abc", "de"], interval: 0.001) },
            logger: lines.logger())
        for try await _ in StreamedRequest().stream(using: session) {}
        // the end is logged before the stream hears of it, so the loop's end sees the log
        let texts = lines.all
        #expect(texts.count == 2)
        let request = try #require(LoggedRequestLine(texts[0]), "expected a request, then a response: \(texts)")
        let response = try #require(LoggedResponseLine(texts[1]), "expected a request, then a response: \(texts)")
        #expect(response.answers(request))
        #expect(response.status == 200)
        #expect(response.bodySize == 5)
        #expect(response.text.hasSuffix(" s, 5 bytes"))
    }
}

@Suite("ResponseStream: the same chain as every call — retried and replayed on the response head")
struct ResponseStreamAttemptTests {
    @Test("a 503 head under a retry policy is retried; the last is thrown with its body")
    func retriedOnHead() async throws {
        let requests = Protected(0)
        let stub = StubTransport { _ in
            requests.withLock { $0 += 1 }
            return .stream(status: 503, chunks: ["busy"])
        }
        let session = Session(transport: stub, retryPolicy: RetryPolicy(maxAttempts: 3)).timed(by: WaitRecorder())
        let error = await #expect(throws: RequestError.self) {
            for try await _ in StreamedRequest().stream(using: session) {}
        }
        #expect(error?.statusCode == 503)
        #expect(error?.body == Data("busy".utf8))
        #expect(error?.context.attempts == 3)
        #expect(requests.value == 3)
    }

    @Test("a 503 head then a 200: the stream yields the second attempt's body")
    func retriedThenStreamed() async throws {
        let requests = Protected(0)
        let stub = StubTransport { _ in
            let count = requests.withLock { count in
                count += 1
                return count
            }
            return count == 1 ? .stream(status: 503, chunks: ["busy"]) : .stream(chunks: ["ab", "c"])
        }
        let session = Session(transport: stub, retryPolicy: RetryPolicy(maxAttempts: 3)).timed(by: WaitRecorder())
        var body = Data()
        for try await chunk in StreamedRequest().stream(using: session) { body.append(chunk) }
        #expect(body == Data("abc".utf8))
        #expect(requests.value == 2)
    }

    @Test("the session's credential is applied; a 401 head is refreshed and replayed once")
    func credentialAppliedAndReplayed() async throws {
        let seen = Protected<[String]>([])
        let stub = StubTransport { request in
            seen.append(request.headerValue("Authorization") ?? "none")
            return .stream(status: 401, chunks: ["expired"])
        }
        let authenticator = CountingAuthenticator()
        let session = Session(transport: stub, credentialStore: CredentialStore(authenticator, credential: "old"))
        let error = await #expect(throws: RequestError.self) {
            for try await _ in StreamedRequest().stream(using: session) {}
        }
        #expect(error?.statusCode == 401)
        #expect(seen.value == ["Bearer old", "Bearer token-1"])
        #expect(authenticator.count == 1)
    }
}
