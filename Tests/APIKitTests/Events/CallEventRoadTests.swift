import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

/// The same stages on every road — `response()`, `perform`, `stream()`, `download()` — and the
/// waits of a ``TrafficControl``, over `StubTransport`.
@Suite("Call events on every road and in traffic queues")
struct CallEventRoadTests {
    /// One way of calling.
    enum Road: String, CaseIterable, CustomStringConvertible {
        case response, perform, stream, download

        var description: String { rawValue }

        /// Runs `TextRequest()` through `session` this way; whether it succeeded.
        func run(_ session: Session) async throws -> Bool {
            switch self {
            case .response:
                return (try? await TextRequest().response(using: session)) != nil
            case .perform:
                let probe = CompletionProbe<Bool>()
                TextRequest().perform(using: session) { probe.record((try? $0.get()) != nil) }
                return await probe.first() == true
            case .stream:
                do {
                    var body = Data()
                    for try await chunk in TextRequest().stream(using: session) { body.append(chunk) }
                    return true
                } catch {
                    return false
                }
            case .download:
                let scratch = try ScratchDirectory("events")
                defer { scratch.remove() }
                return (try? await TextRequest().download(to: scratch.file("body"), using: session)) != nil
            }
        }
    }

    /// A stub that answers its first request with `first` and every later one `ok`, and the
    /// count of requests it received.
    static func answering(first: StubResponse) -> (StubTransport, calls: Locked<Int>) {
        let calls = Locked(0)
        let transport = StubTransport { _ in
            calls.withLock {
                $0 += 1
                return $0
            } == 1 ? first : .success(body: "ok")
        }
        return (transport, calls)
    }

    @Test("Success: the same stages on every road", arguments: Road.allCases)
    func success(road: Road) async throws {
        let log = CallEventLog()
        let session = Session(transport: StubTransport { _ in .success(body: "ok") }, onCallEvent: log.observer)
        #expect(try await road.run(session))
        #expect(await log.waitForEnds())
        #expect(
            log.names == [
                "callStarted", "attemptStarted(1)", "requestSent", "responseHead(200)", "bodyEnded", "finished",
            ])
        #expect(log.metrics()?.bytesReceived == 2)
        #expect(log.metrics()?.attempts == 1)
    }

    @Test("A 503 retried: the same stages on every road", arguments: Road.allCases)
    func retried(road: Road) async throws {
        let log = CallEventLog()
        let (transport, _) = Self.answering(first: .success(status: 503, body: "busy"))
        let session = Session(
            transport: transport, retryPolicy: RetryPolicy(backoff: .init(baseDelay: 0, jitter: false)),
            onCallEvent: log.observer
        ).timed(by: WaitRecorder())
        #expect(try await road.run(session))
        #expect(await log.waitForEnds())
        #expect(
            log.names == [
                "callStarted", "attemptStarted(1)", "requestSent", "responseHead(503)", "retryScheduled(503)",
                "attemptStarted(2)", "requestSent", "responseHead(200)", "bodyEnded", "finished",
            ])
    }

    @Test("A rejected status: the same stages on every road", arguments: Road.allCases)
    func rejected(road: Road) async throws {
        let log = CallEventLog()
        let session = Session(
            transport: StubTransport { _ in .success(status: 404, body: "gone") }, onCallEvent: log.observer)
        #expect(try await !road.run(session))
        #expect(await log.waitForEnds())
        #expect(
            log.names == [
                "callStarted", "attemptStarted(1)", "requestSent", "responseHead(404)", "bodyEnded",
                "failed(responseValidation)",
            ])
    }

    @Test("A stream's call ends when its body has been received, with its size")
    func streamEndsWithItsBody() async throws {
        let log = CallEventLog()
        let session = Session(
            transport: StubTransport { _ in .stream(chunks: ["ab", "cd", "e"]) }, onCallEvent: log.observer)
        var received = 0
        for try await chunk in TextRequest().stream(using: session) { received += chunk.count }
        #expect(received == 5)
        #expect(await log.waitForEnds())
        #expect(
            log.names == [
                "callStarted", "attemptStarted(1)", "requestSent", "responseHead(200)", "bodyEnded", "finished",
            ])
        #expect(log.metrics()?.bytesReceived == 5)
    }

    @Test("A stream whose body fails after its head: the call ends with the transport's failure")
    func streamBodyFails() async throws {
        let log = CallEventLog()
        let transport = ScriptedStreamTransport([
            [
                .response(ScriptedStreamTransport.head()), .data(Data("ab".utf8)),
                .failed(URLError(.networkConnectionLost)),
            ]
        ])
        var received = 0
        let error = await #expect(throws: RequestError.self) {
            for try await chunk in TextRequest().stream(using: Session(transport: transport, onCallEvent: log.observer))
            {
                received += chunk.count
            }
        }
        #expect(received == 2)
        #expect(error?.stage == .transport)
        #expect(await log.waitForEnds())
        #expect(
            log.names == ["callStarted", "attemptStarted(1)", "requestSent", "responseHead(200)", "failed(transport)"])
    }

    @Test("A stream its reader stops mid-body: the call ends cancelled")
    func streamStoppedByItsReader() async throws {
        let log = CallEventLog()
        // the connection stays open until it is cancelled
        let transport = ScriptedStreamTransport([[.response(ScriptedStreamTransport.head()), .data(Data("ab".utf8))]])
        for try await _ in TextRequest().stream(using: Session(transport: transport, onCallEvent: log.observer)) {
            break
        }
        #expect(await log.waitForEnds())
        #expect(log.names == ["callStarted", "attemptStarted(1)", "requestSent", "responseHead(200)", "cancelled"])
    }

    @Test(
        "A stream the library stops — its buffer full, a line that does not decode — ends with that error, not as cancelled"
    )
    func streamStoppedByTheLibrary() async throws {
        struct Item: Decodable, Sendable { let id: Int }
        // the connections stay open until they are cancelled
        let chunk = Data(repeating: 0x61, count: 100)
        let full = ScriptedStreamTransport([[.response(ScriptedStreamTransport.head()), .data(chunk), .data(chunk)]])
        let fullLog = CallEventLog()
        let stream = TextRequest().stream(
            using: Session(transport: full, onCallEvent: fullLog.observer), maximumBufferSize: 150)
        var reader = stream.makeAsyncIterator()
        // the head only: no chunk is read, and the second passes the limit
        _ = try await reader.response()
        #expect(await fullLog.waitForEnds())
        #expect(fullLog.names.last == "failed(transport)")
        guard case .failed(.transportFailed(let error, _), _)? = fullLog.all.last?.stage else {
            Issue.record("expected a transport failure, got \(fullLog.names)")
            return
        }
        guard case .bufferLimitExceeded(limit: 150)? = error as? ResponseStreamError else {
            Issue.record("expected bufferLimitExceeded, got \(error)")
            return
        }
        // the chunk queued before the limit, then the limit's error
        #expect(try await reader.next()?.count == 100)
        await #expect(throws: RequestError.self) { _ = try await reader.next() }

        let bad = ScriptedStreamTransport([
            [.response(ScriptedStreamTransport.head()), .data(Data("{\"id\":1}\nnot json\n".utf8))]
        ])
        let badLog = CallEventLog()
        var ids: [Int] = []
        let thrown = await #expect(throws: RequestError.self) {
            for try await item in TextRequest().stream(using: Session(transport: bad, onCallEvent: badLog.observer))
                .jsonLines(of: Item.self)
            {
                ids.append(item.id)
            }
        }
        #expect(ids == [1])
        #expect(thrown?.stage == .parsing)
        #expect(await badLog.waitForEnds())
        #expect(
            badLog.names == ["callStarted", "attemptStarted(1)", "requestSent", "responseHead(200)", "failed(parsing)"])

        // received whole before the reader found the bad line: the call's transfer finished
        let whole = StubTransport { _ in .stream(chunks: ["{\"id\":1}\nnot json\n"]) }
        let wholeLog = CallEventLog()
        var lines = TextRequest().stream(using: Session(transport: whole, onCallEvent: wholeLog.observer))
            .jsonLines(of: Item.self).makeAsyncIterator()
        _ = try await lines.response()
        #expect(await wholeLog.waitForEnds(), "the body ended before it was read")
        #expect(try await lines.next()?.id == 1)
        await #expect(throws: RequestError.self) { _ = try await lines.next() }
        #expect(wholeLog.names.last == "finished")
    }

    /// Starts a call to `path` and waits until it is sent or waiting.
    private static func start(
        _ path: String, session: Session, traffic: TrafficControl, transport: GateTransport
    ) async -> Task<Result<String, RequestError>, Never> {
        let before = transport.arrivals.count + traffic.waitingCount
        let task = Task { await TextRequest(path: path).result(session: session) }
        #expect(await eventually { transport.arrivals.count + traffic.waitingCount > before })
        return task
    }

    @Test("A call over the limit: queued, then dequeued with its wait; the summary counts the wait")
    func queuedThenDequeued() async throws {
        let log = CallEventLog()
        let clock = ManualClock()
        let transport = GateTransport()
        let traffic = TrafficControl(maxCallsInFlightPerHost: 1, clock: clock)
        let session = Session(transport: transport, interceptors: [traffic], onCallEvent: log.observer)
        let first = await Self.start("a", session: session, traffic: traffic, transport: transport)
        let queued = await Self.start("b", session: session, traffic: traffic, transport: transport)
        clock.advance(by: .seconds(2))
        transport.answer()
        #expect(await transport.waitForHeld(1))
        transport.answer()
        #expect(try await first.value.get() == "ok")
        #expect(try await queued.value.get() == "ok")
        #expect(await log.waitForEnds(2))
        let ids = log.callIDs
        #expect(
            log.names(of: ids[0]) == [
                "callStarted", "attemptStarted(1)", "requestSent", "responseHead(200)", "bodyEnded", "finished",
            ])
        #expect(
            log.names(of: ids[1]) == [
                "callStarted", "attemptStarted(1)", "queued", "dequeued", "requestSent", "responseHead(200)",
                "bodyEnded", "finished",
            ])
        let waits = log.events(of: ids[1]).compactMap { event -> Duration? in
            if case .dequeued(let host, let waited) = event.stage, host == "api.example.test" { waited } else { nil }
        }
        #expect(waits == [.seconds(2)])
        #expect(log.metrics(of: ids[1])?.queueWait == .seconds(2))
        #expect(log.metrics(of: ids[0])?.queueWait == .zero)
    }

    @Test(
        "A call cancelled while it waits in the queue: queued, then cancelled; nothing sent", arguments: [false, true])
    func cancelledWhileQueued(perform: Bool) async throws {
        let log = CallEventLog()
        let transport = GateTransport()
        let traffic = TrafficControl(maxCallsInFlightPerHost: 1, clock: ManualClock())
        let session = Session(transport: transport, interceptors: [traffic], onCallEvent: log.observer)
        let first = await Self.start("a", session: session, traffic: traffic, transport: transport)
        if perform {
            let probe = CompletionProbe<RequestError.Stage?>()
            let handle = TextRequest(path: "b").perform(using: session) { probe.record($0.errorValue?.stage) }
            #expect(await traffic.waitForWaiting(1))
            handle.cancel()
            #expect(await probe.first() == .cancelled)
        } else {
            let cancelled = await Self.start("b", session: session, traffic: traffic, transport: transport)
            cancelled.cancel()
            #expect(await cancelled.value.errorValue?.stage == .cancelled)
        }
        #expect(await log.waitForEnds(1))
        transport.answer()
        #expect(try await first.value.get() == "ok")
        #expect(await log.waitForEnds(2))
        let ids = log.callIDs
        #expect(log.names(of: ids[1]) == ["callStarted", "attemptStarted(1)", "queued", "cancelled"])
        #expect(log.metrics(of: ids[1])?.attempts == 0)
        #expect(transport.paths == ["a"])
    }

    @Test("A call cancelled while it waits to retry ends cancelled, and nothing follows")
    func cancelledDuringBackoff() async throws {
        let log = CallEventLog()
        let time = ManualTime()
        let session = Session(
            transport: StubTransport { _ in .success(status: 503, body: "") },
            retryPolicy: RetryPolicy(backoff: .init(baseDelay: 1, jitter: false)), onCallEvent: log.observer
        ).timed(by: time)
        let call = Task { await TextRequest().result(session: session) }
        #expect(await time.nextWait() == 1)
        call.cancel()
        #expect(await call.value.errorValue?.stage == .cancelled)
        #expect(await log.waitForEnds())
        #expect(
            log.names == [
                "callStarted", "attemptStarted(1)", "requestSent", "responseHead(503)", "retryScheduled(503)",
                "cancelled",
            ])
    }
}
