import APIKit
import APIKitTestSupport
import APIKitTestTime
import Foundation
import Testing

/// A GET of one of the FastAPI server's streaming endpoints (`/sse`, `/jsonl`, `/slow`,
/// `/status/{code}`).
struct FastAPIStreamRequest: Request, RequestConfiguration {
    var path: String
    @Query("count") var count: Int? = nil
    @Query("interval_ms") var intervalMilliseconds: Int? = nil
    @Query("drop_after") var dropAfter: Int? = nil
    @Query("retry_ms") var retryMilliseconds: Int? = nil
    var base = FastAPIServer.url ?? URL(string: "http://127.0.0.1:9")!
    var method: HTTPMethod { .get }
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    var options: RequestOptions { RequestOptions(timeout: 10) }
}

/// The body of `/status/{code}`.
struct FastAPIStatus: Decodable, Sendable, Equatable {
    let status: Int
    let error: String
}

/// One line of `/jsonl`.
struct FastAPILine: Decodable, Sendable, Equatable {
    let index: Int
    let text: String
}

@Suite(
    "Streamed responses against a real streaming server (FastAPI on uvicorn)",
    .enabled(if: FastAPIServer.url != nil, FastAPIServer.skipReason))
struct StreamingTests {
    let transport = TestTransport.make()

    @Test("/sse: named events, multi-line data, ids and retry, as the server sends them")
    func serverSentEvents() async throws {
        let session = Session(transport: transport)
        var events: [ServerSentEvent] = []
        for try await event in FastAPIStreamRequest(path: "sse", count: 4).stream(using: session).serverSentEvents {
            events.append(event)
        }
        #expect(
            events == [
                ServerSentEvent(event: "tick", data: "event 1\nline two of 1", id: "1"),
                ServerSentEvent(event: "message", data: "event 2\nline two of 2", id: "2"),
                ServerSentEvent(event: "tick", data: "event 3\nline two of 3", id: "3"),
                ServerSentEvent(event: "message", data: "event 4\nline two of 4", id: "4"),
            ])
    }

    @Test("/sse with drops: the reconnecting sequence yields every event once, in order, resuming after Last-Event-ID")
    func serverSentEventsReconnect() async throws {
        let sent = LastEventIDRecorder()
        let session = Session(transport: transport, interceptors: [sent])
        let request = FastAPIStreamRequest(path: "sse", count: 6, dropAfter: 2, retryMilliseconds: 50)
        // the server's retry (50 ms) replaces the 10 s initial delay: a test that waited it would time out
        let events = request.stream(using: session)
            .reconnectingServerSentEvents(maximumAttempts: 3, initialDelay: 10)
        var received: [ServerSentEvent] = []
        for try await event in events { received.append(event) }
        #expect(
            received
                == (1...6).map { i in
                    ServerSentEvent(
                        event: i % 2 == 1 ? "tick" : "message", data: "event \(i)\nline two of \(i)", id: "\(i)")
                })
        // three connections of two events, then the 204 that says the last id was the last event
        #expect(sent.lastEventIDs.value == [nil, "2", "4", "6"])
    }

    @Test("/jsonl: every line decoded, in order, through each transport under test")
    func jsonLines() async throws {
        for (name, transport) in TestTransport.all() {
            let stream = FastAPIStreamRequest(path: "jsonl", count: 200).stream(using: Session(transport: transport))
            var lines: [FastAPILine] = []
            for try await line in stream.jsonLines(of: FastAPILine.self) { lines.append(line) }
            #expect(lines == (0..<200).map { FastAPILine(index: $0, text: "line \($0)") }, "\(name)")
        }
    }

    @Test("/slow: the transport hands over the first event before the server has sent the last one")
    func firstElementEarly() async throws {
        struct Sent: Decodable {
            let milliseconds: Double
            enum CodingKeys: String, CodingKey { case milliseconds = "sent_ms" }
        }
        // Arrivals are stamped (wall clock, ms) as the transport delivers them: the consuming
        // task may be scheduled late on a loaded machine, which would say nothing about the
        // transport.
        let stamps = Protected<[Double]>([])
        let stamped = TappedTransport(base: transport) { event in
            if case .data = event { stamps.append(Date().timeIntervalSince1970 * 1000) }
        }
        let session = Session(transport: stamped)
        var sent: [Double] = []
        // 500 ms apart: a loaded machine can stall a transport's thread for a second or two (a
        // fresh-clone CI once delivered the first event 1.75 s late, with 250 ms)
        let request = FastAPIStreamRequest(path: "slow", count: 8, intervalMilliseconds: 500)
        for try await event in request.stream(using: session).serverSentEvents {
            sent.append(try JSONDecoder().decode(Sent.self, from: Data(event.data.utf8)).milliseconds)
        }
        #expect(sent.count == 8)
        // Causal: the server writes the last event 3.5 s after the first, and the first chunk
        // must have been delivered before that.
        let arrivals = stamps.value
        let firstArrival = try #require(arrivals.first)
        let lastSent = try #require(sent.last)
        #expect(
            firstArrival < lastSent,
            "delivered \(arrivals.map { Int($0 - firstArrival) }) sent \(sent.map { Int($0 - firstArrival) }) ms")
    }

    @Test("/status/404: unacceptableStatusCode before the first element, the error body decoded")
    func rejectedStatus() async throws {
        let session = Session(transport: transport, errorBodyDecoder: .json(FastAPIStatus.self))
        var elements = 0
        let error = await #expect(throws: RequestError.self) {
            for try await _ in FastAPIStreamRequest(path: "status/404").stream(using: session) { elements += 1 }
        }
        #expect(elements == 0)
        #expect(error?.statusCode == 404)
        #expect(error?.stage == .responseValidation)
        #expect((error?.errorBody as? FastAPIStatus) == FastAPIStatus(status: 404, error: "Not Found"))
    }
}

@Suite(
    "A cancelled stream closes its connection (fault server)",
    .enabled(if: FaultServer.url != nil, FaultServer.skipReason))
struct StreamCancellationTests {
    // Real time, a byte a second: the idle timeout (60 s) is far beyond it, so that only the
    // test's own break or cancel can end the transfer, however busy the machine.
    @Test("breaking out of the loop after the first chunk of /drip closes the socket")
    func breakClosesSocket() async throws {
        let transport = TestTransport.make()
        let session = Session(transport: transport)
        let tag = UUID().uuidString
        var chunks = 0
        // 20 bytes 3 s apart: the transfer is still running when the loop breaks, even if the
        // loop runs late on a loaded machine (a transfer that ended would leave its connection
        // in the pool, rightly; beside stress-ng a 19 s body once ended before the test went on)
        for try await _ in FaultRequest(path: "drip", interval: 3, tag: tag, idleTimeout: 60).stream(using: session) {
            chunks += 1
            break
        }
        #expect(chunks == 1)
        try await expectNoSocketLeft(tag: tag)
        withExtendedLifetime(transport) {}
    }

    @Test("cancelling the consuming task mid-stream throws cancelled and closes the socket")
    func cancelClosesSocket() async throws {
        let transport = TestTransport.make()
        let session = Session(transport: transport)
        let tag = UUID().uuidString
        let first = AsyncStream<Void>.makeStream()
        let consumer = Task {
            // a stream that fails before its first chunk ends the wait below too; 20 bytes 3 s
            // apart, so that the cancel comes mid-stream even late (a 19 s body once ended first
            // beside stress-ng)
            defer { first.continuation.finish() }
            for try await _ in FaultRequest(path: "drip", interval: 3, tag: tag, idleTimeout: 60).stream(using: session)
            {
                first.continuation.yield()
            }
        }
        for await _ in first.stream { break }
        consumer.cancel()
        let result = await consumer.result
        guard case .failure(let error) = result, case .cancelled? = error as? RequestError else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        try await expectNoSocketLeft(tag: tag)
        withExtendedLifetime(transport) {}
    }

    /// Expects that no socket of the connections the fault server saw for `tag` is still open
    /// in this process, within 5 s (as `FaultInjectionTests` checks its transfers).
    func expectNoSocketLeft(tag: String) async throws {
        guard OpenSockets.available, let server = FaultServer.url, let serverPort = server.port else {
            Issue.record("cannot check sockets: no /proc or no fault server port")
            return
        }
        var components = try #require(URLComponents(url: server, resolvingAgainstBaseURL: false))
        components.path = "/ports"
        components.queryItems = [URLQueryItem(name: "tag", value: tag)]
        let (data, _) = try await URLSession.shared.data(for: URLRequest(url: try #require(components.url)))
        let ports = Set(try JSONDecoder().decode([Int].self, from: data))
        #expect(!ports.isEmpty, "the fault server saw no tagged connection")
        var left: Set<Int> = []
        for _ in 0..<50 {
            left = Set(OpenSockets.held().filter { $0.remotePort == serverPort }.map(\.localPort)).intersection(ports)
            if left.isEmpty { return }
            await pause(0.1)
        }
        Issue.record("\(left.count) of \(ports.count) sockets still open after the stream ended")
    }
}

/// Records the `Last-Event-ID` header of each request it adapts.
final class LastEventIDRecorder: AdaptingInterceptor {
    let lastEventIDs = Protected<[String?]>([])

    func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
        lastEventIDs.append(urlRequest.value(forHTTPHeaderField: "Last-Event-ID"))
        return urlRequest
    }
}
