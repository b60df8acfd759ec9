import APIKit
import APIKitAsyncHTTPClient
import APIKitTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The events of one `stream(_:onEvent:)` call, with checks of the order the seam promises.
final class StreamRecording: Sendable {
    enum Event: Sendable, Equatable {
        case response(Int)
        case data(Int)
        case finished
        case failed(URLError.Code?)
    }

    private let state = Protected<(events: [Event], bodies: Data, inside: Int, overlaps: Int)>(([], Data(), 0, 0))
    /// The end (`.finished` or `.failed`), the first time it comes.
    let end = CompletionProbe<Event>()
    /// Watches the handlers handed out by ``handler(_:)``: once none is held, no event can come.
    let releases = ReleaseProbe()

    /// A handler that records each event — after `also`, which sees it first — watched by
    /// ``releases``. Pass it straight to the transport: a copy the test keeps holds it too.
    func handler(
        _ also: (@Sendable (TransportStreamEvent) -> Void)? = nil, hold: (@Sendable () -> Void)? = nil
    ) -> @Sendable (TransportStreamEvent) -> Void {
        releases.watch { [self] event in
            also?(event)
            receive(event, hold: hold)
        }
    }

    /// The events so far.
    var events: [Event] { state.value.events }
    /// The body bytes so far.
    var body: Data { state.value.bodies }
    /// How many times `onEvent` was entered while another call was still running.
    var overlaps: Int { state.value.overlaps }

    /// Records one event; `hold` runs inside the call, to play a slow consumer.
    func receive(_ event: TransportStreamEvent, hold: (() -> Void)? = nil) {
        state.withLock { state in
            if state.inside > 0 { state.overlaps += 1 }
            state.inside += 1
        }
        let recorded: Event
        switch event {
        case .response(let response): recorded = .response((response as? HTTPURLResponse)?.statusCode ?? 0)
        case .data(let chunk):
            recorded = .data(chunk.count)
            state.withLock { $0.bodies.append(chunk) }
        case .finished: recorded = .finished
        case .failed(let error): recorded = .failed((error as? URLError)?.code)
        }
        state.withLock { $0.events.append(recorded) }
        hold?()
        state.withLock { $0.inside -= 1 }
        if recorded == .finished || recorded.isFailure { end.record(recorded) }
    }

    /// Expects the seam's order: at most one `.response`, first; `.data` only after it; exactly
    /// one end, last; and no call overlapping another.
    func expectWellFormed(sourceLocation: SourceLocation = #_sourceLocation) {
        let events = self.events
        let ends = events.filter { $0 == .finished || $0.isFailure }
        #expect(ends.count == 1, "ends: \(events)", sourceLocation: sourceLocation)
        #expect(
            events.last.map { $0 == .finished || $0.isFailure } == true, "\(events)", sourceLocation: sourceLocation)
        let heads = events.indices.filter { if case .response = events[$0] { true } else { false } }
        #expect(heads.count <= 1, "\(events)", sourceLocation: sourceLocation)
        if let firstData = events.firstIndex(where: { if case .data = $0 { true } else { false } }) {
            #expect(
                heads.first.map { $0 < firstData } == true, "data before the head: \(events)",
                sourceLocation: sourceLocation)
        }
        #expect(overlaps == 0, "onEvent ran concurrently with itself", sourceLocation: sourceLocation)
    }
}

extension StreamRecording.Event {
    var isFailure: Bool {
        if case .failed = self { true } else { false }
    }
}

@Suite(
    "Streamed responses through AsyncHTTPClientTransport", .enabled(if: FaultServer.url != nil, FaultServer.skipReason))
struct StreamTests {
    /// The suite's transport: a refused connection fails at once (see `TestTransport.shared`).
    let transport = TestTransport.shared

    /// Waits for the end, then until the transport has let go of the handler (so that nothing
    /// can come after what the test reads), and checks the events' order. A test that keeps the
    /// transfer's task drops it first: the task holds the handler.
    func ended(_ recording: StreamRecording, timeout: TimeInterval = 30) async throws -> StreamRecording.Event {
        let end = try #require(await recording.end.first(timeout: timeout), "no end within \(timeout) s")
        #expect(await recording.releases.all(), "the transport still holds the handler")
        recording.expectWellFormed()
        return end
    }

    @Test("/drip: the head, then each byte as the server sends it, then .finished, once")
    func dripChunkByChunk() async throws {
        let recording = StreamRecording()
        var request = URLRequest(
            url: try #require(URL(string: FaultServer.baseURL.absoluteString + "/drip?interval=0.25")))
        // real time: the server's bytes are 0.25 s apart, so its first and last are ~4.75 s
        // apart; the check below fails only if the first chunk reached the handler more than
        // 4.25 s late, well beyond a loaded machine's delays (0.05 s apart, a busy run once
        // delivered the first chunk 0.43 s before the end). The idle timeout is not the
        // subject: 60 s, as a 5 s one cut the body on a machine stalled beside stress-ng.
        request.timeoutInterval = 60
        let started = ContinuousClock.now
        let firstChunk = CompletionProbe<ContinuousClock.Instant>()
        _ = transport.stream(
            request,
            onEvent: recording.handler { event in
                if case .data = event { firstChunk.record(.now) }
            })
        #expect(try await ended(recording, timeout: 120) == .finished)
        #expect(recording.events.first == .response(200))
        #expect(recording.body == Data(repeating: UInt8(ascii: "x"), count: 20))
        let chunks = recording.events.filter { if case .data = $0 { true } else { false } }
        #expect(chunks.count > 1, "the body came in one piece: \(recording.events)")
        // the server sends the last byte ~4.75 s after the first: the first came before the end
        let first = try #require(firstChunk.firstRecordedAt)
        let end = try #require(recording.end.firstRecordedAt)
        #expect(end - first > .milliseconds(500), "first chunk \(first - started), end \(end - started)")
    }

    @Test("cancel() mid-body ends the events once with .failed(.cancelled), promptly")
    func cancelMidBody() async throws {
        let recording = StreamRecording()
        var request = URLRequest(
            url: try #require(URL(string: FaultServer.baseURL.absoluteString + "/drip?interval=3")))
        request.timeoutInterval = 30
        let firstChunk = CompletionProbe<Void>()
        var task: (any TransportTask)? = transport.stream(
            request,
            onEvent: recording.handler { event in
                if case .data = event { firstChunk.record(()) }
            })
        _ = try #require(await firstChunk.first(), "no chunk within 120 s")
        let cancelled = ContinuousClock.now
        task?.cancel()
        task?.cancel()
        task = nil
        #expect(try await ended(recording, timeout: 120) == .failed(.cancelled))
        // real time: 20 bytes 3 s apart, so the drip would go on for ~54 s more (a 19 s one ended
        // before the cancel beside stress-ng); ending well before that is the cancel's doing
        let end = try #require(recording.end.firstRecordedAt)
        #expect(end - cancelled < .seconds(45), "ended \(end - cancelled) after cancel()")
    }

    @Test("cancel() before the head ends the events with .failed(.cancelled) only")
    func cancelBeforeHead() async throws {
        let recording = StreamRecording()
        var task: (any TransportTask)? = transport.stream(
            URLRequest(url: FaultServer.baseURL.appendingPathComponent("never")), onEvent: recording.handler())
        task?.cancel()
        task = nil
        #expect(try await ended(recording) == .failed(.cancelled))
        #expect(recording.events == [.failed(.cancelled)])
    }

    @Test("timeoutInterval is an idle timeout between chunks: a stalled body ends with .failed(.timedOut)")
    func idleTimeoutMidBody() async throws {
        let recording = StreamRecording()
        // real time: 30 s between bytes, ten times the 3 s timeout, so that a busy machine's late
        // look cannot reach the next byte; the head comes at once
        var request = URLRequest(
            url: try #require(URL(string: FaultServer.baseURL.absoluteString + "/drip-stall?interval=30")))
        request.timeoutInterval = 3
        _ = transport.stream(request, onEvent: recording.handler())
        #expect(try await ended(recording) == .failed(.timedOut))
        #expect(recording.events.first == .response(200))
    }

    @Test("a body that keeps coming outlives the timeout: the head deadline does not cut a long stream")
    func longStreamWithinIdleTimeout() async throws {
        let recording = StreamRecording()
        var request = URLRequest(
            url: try #require(URL(string: FaultServer.baseURL.absoluteString + "/drip?interval=1")))
        // real time: 8 s is 8 times a byte's gap (a 4 s timeout over 0.3 s gaps was cut by a
        // stall beside stress-ng), and shorter than the whole body (~19 s)
        request.timeoutInterval = 8
        let started = ContinuousClock.now
        _ = transport.stream(request, onEvent: recording.handler())
        #expect(try await ended(recording, timeout: 120) == .finished)
        #expect(recording.body.count == 20)
        #expect(ContinuousClock.now - started > .seconds(10), "20 bytes 1 s apart take ~19 s, past the head deadline")
    }

    @Test("a slow consumer is never called concurrently, and gets every chunk in order")
    func slowConsumer() async throws {
        let recording = StreamRecording()
        var request = URLRequest(
            url: try #require(URL(string: FaultServer.baseURL.absoluteString + "/drip?interval=0.01")))
        request.timeoutInterval = 10
        _ = transport.stream(request, onEvent: recording.handler(hold: { Thread.sleep(forTimeInterval: 0.02) }))
        #expect(try await ended(recording) == .finished)
        #expect(recording.body.count == 20)
    }

    @Test("a consumer that holds an event longer than the idle timeout is not an idle network: the body ends whole")
    func consumerLongerThanTheTimeout() async throws {
        let recording = StreamRecording()
        var request = URLRequest(
            url: try #require(URL(string: FaultServer.baseURL.absoluteString + "/drip?interval=0.05")))
        request.timeoutInterval = 3
        let held = Protected(false)
        // the first event (the head) is held 6 s, past the 3 s timeout; the bytes come 0.05 s apart
        // (3 s of slack for a machine busy with other builds)
        _ = transport.stream(
            request,
            onEvent: recording.handler(hold: {
                guard !held.withLock({ $0 }) else { return }
                held.withLock { $0 = true }
                Thread.sleep(forTimeInterval: 6)
            }))
        #expect(try await ended(recording) == .finished)
        #expect(recording.body.count == 20)
    }

    @Test("a refused connection ends with .failed only, and no head")
    func refused() async throws {
        let recording = StreamRecording()
        _ = transport.stream(URLRequest(url: try HTTPBin.refusedURL()), onEvent: recording.handler())
        #expect(try await ended(recording) == .failed(.cannotConnectToHost))
        #expect(recording.events.count == 1)
    }

    @Test("a reset mid-body ends with .failed(.networkConnectionLost) after the head and what arrived")
    func resetMidBody() async throws {
        let recording = StreamRecording()
        _ = transport.stream(
            URLRequest(url: FaultServer.baseURL.appendingPathComponent("reset-mid-body")), onEvent: recording.handler())
        let end = try await ended(recording)
        #expect(end == .failed(.networkConnectionLost) || end == .failed(.badServerResponse), "\(recording.events)")
        #expect(recording.events.first == .response(200))
    }

    @Test("/short-body (1000 bytes promised, 10 sent) ends with a failure, never .finished")
    func shortBody() async throws {
        let recording = StreamRecording()
        _ = transport.stream(
            URLRequest(url: FaultServer.baseURL.appendingPathComponent("short-body")), onEvent: recording.handler())
        let end = try await ended(recording)
        #expect(end.isFailure, "\(recording.events)")
    }
}
