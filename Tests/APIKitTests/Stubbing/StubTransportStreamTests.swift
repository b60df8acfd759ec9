import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

/// Records a streamed transfer's events as text, so that tests compare sequences.
final class StreamEventLog: Sendable {
    private let events = Protected<[String]>([])
    private let ended = CompletionProbe<Void>()
    /// Records each event, to wait for the first.
    let started = CompletionProbe<Void>()
    /// Watches the handlers handed to transports: released once a transport can send no more.
    private let handlers = ReleaseProbe()

    /// ``record(_:)``, watched: pass it as a transport's `onEvent`.
    var handler: @Sendable (TransportStreamEvent) -> Void {
        handlers.watch { [self] event in record(event) }
    }

    func record(_ event: TransportStreamEvent) {
        let text: String
        switch event {
        case .response(let response): text = "response \((response as? HTTPURLResponse)?.statusCode ?? 0)"
        case .data(let data): text = "data \(String(decoding: data, as: UTF8.self))"
        case .finished: text = "finished"
        case .failed(let error): text = "failed \((error as? URLError)?.code.rawValue ?? 0)"
        }
        events.withLock { $0.append(text) }
        started.record(())
        switch event {
        case .finished, .failed: ended.record(())
        case .response, .data: break
        }
    }

    /// The events once the transfer has ended and the transport has let go of the handler, so
    /// that no event can follow: an event too many is among them.
    func all(sourceLocation: SourceLocation = #_sourceLocation) async -> [String] {
        _ = await ended.first()
        let released = await handlers.all()
        #expect(released, "the transport still holds onEvent after the end", sourceLocation: sourceLocation)
        return events.withLock { $0 }
    }
}

@Suite("Transport.stream: the seam for streamed responses")
struct StubTransportStreamTests {
    @Test("a stubbed stream delivers the response, each chunk in order, then finished")
    func chunksInOrder() async {
        let stub = StubTransport { _ in .stream(status: 201, chunks: ["a", "b", "c"], interval: 0.01) }
        let log = StreamEventLog()
        _ = stub.stream(URLRequest(url: stubBase), onEvent: log.handler)
        #expect(await log.all() == ["response 201", "data a", "data b", "data c", "finished"])
    }

    @Test("send answers a chunked stub with the chunks joined")
    func sendJoinsChunks() async throws {
        let stub = StubTransport { _ in .stream(chunks: ["ab", "cd"], interval: 0.01) }
        let probe = CompletionProbe<Result<TransportResponse, any Error>>()
        _ = stub.send(URLRequest(url: stubBase), progress: nil) { probe.record($0) }
        let response = try #require(await probe.first()).get()
        #expect(String(decoding: response.data, as: UTF8.self) == "abcd")
    }

    @Test("a body shorter than its Content-Length is cut off: the bytes, then a lost connection, on both roads")
    func cutOffBody() async throws {
        let stub = StubTransport { _ in .stream(headers: ["content-length": " 10 "], chunks: ["ab", "cd"]) }
        let log = StreamEventLog()
        _ = stub.stream(URLRequest(url: stubBase), onEvent: log.handler)
        let lost = URLError.Code.networkConnectionLost
        #expect(await log.all() == ["response 200", "data ab", "data cd", "failed \(lost.rawValue)"])
        let probe = CompletionProbe<Result<TransportResponse, any Error>>()
        _ = stub.send(URLRequest(url: stubBase), progress: nil) { probe.record($0) }
        let result = try #require(await probe.first())
        #expect((result.errorValue as? URLError)?.code == lost)
    }

    @Test(
        "a head that announces no body to cut — HEAD, 204, 304, or a Content-Length the body meets — ends normally",
        arguments: [("HEAD", 200, "10", ""), ("GET", 204, "10", ""), ("GET", 304, "10", ""), ("GET", 200, "2", "ok")])
    func notCutOff(method: String, status: Int, length: String, body: String) async {
        let stub = StubTransport { _ in .success(status: status, headers: ["Content-Length": length], body: body) }
        var request = URLRequest(url: stubBase)
        request.httpMethod = method
        let log = StreamEventLog()
        _ = stub.stream(request, onEvent: log.handler)
        #expect(await log.all() == ["response \(status)"] + (body.isEmpty ? [] : ["data \(body)"]) + ["finished"])
    }

    @Test("a stubbed failure is the only event")
    func failureOnly() async {
        let stub = StubTransport { _ in .failure(URLError(.timedOut)) }
        let log = StreamEventLog()
        _ = stub.stream(URLRequest(url: stubBase), onEvent: log.handler)
        #expect(await log.all() == ["failed \(URLError.Code.timedOut.rawValue)"])
    }

    @Test("cancelling a stubbed stream ends it once with URLError(.cancelled), nothing after")
    func cancel() async {
        // cancelled once the response is in, 60 s before the first chunk is due: a loaded
        // machine has delayed this test's cancel() by over 5 s
        let stub = StubTransport { _ in .stream(chunks: ["a", "b", "c"], interval: 60) }
        let log = StreamEventLog()
        let task = stub.stream(URLRequest(url: stubBase), onEvent: log.handler)
        _ = await log.started.first()
        task.cancel()
        task.cancel()
        let events = await log.all()
        #expect(events.first == "response 200")
        #expect(events.last == "failed \(URLError.Code.cancelled.rawValue)")
        #expect(events.filter { $0.hasPrefix("failed") || $0 == "finished" }.count == 1)
    }

    @Test("a transport with only send streams the whole body as one chunk")
    func defaultImplementation() async {
        let transport = SendOnlyStub(base: StubTransport { _ in .stream(chunks: ["a", "b"]) })
        let log = StreamEventLog()
        _ = transport.stream(URLRequest(url: stubBase), onEvent: log.handler)
        #expect(await log.all() == ["response 200", "data ab", "finished"])
    }

    @Test("the default implementation sends no chunk for an empty body")
    func defaultImplementationEmptyBody() async {
        let transport = SendOnlyStub(base: StubTransport { _ in .success(status: 204) })
        let log = StreamEventLog()
        _ = transport.stream(URLRequest(url: stubBase), onEvent: log.handler)
        #expect(await log.all() == ["response 204", "finished"])
    }
}
