import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

/// A `URLSessionTransport` over an ephemeral session whose requests all go to ``StubURLProtocol``.
private func stubbedTransport() -> URLSessionTransport {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [StubURLProtocol.self]
    configuration.urlCache = nil
    return URLSessionTransport(configuration: configuration)
}

@Suite("The default transport: URLSessionTransport.shared, and the URLSession of perform(session:)")
struct DefaultTransportTests {
    struct Ping: Request, RequestConfiguration {
        var base: URL
        var path = "ping"
        var method: HTTPMethod = .get
        var parser: StringParser { StringParser() }
    }

    @Test("Session() and Session.shared send through URLSessionTransport.shared")
    func defaults() {
        let shared = URLSessionTransport.shared
        #expect((Session().transport as? URLSessionTransport) === shared)
        #expect((Session().transport as? URLSessionTransport) === shared)
        #expect((Session(defaultHeaders: ["A": "1"]).transport as? URLSessionTransport) === shared)
    }

    @Test("perform(session:) sends through the URLSession it is given (the stub is reachable only there)")
    func performUsesTheGivenURLSession() async throws {
        let endpoint = StubEndpoint(.status(200, body: "pong"))
        let probe = CompletionProbe<Result<String, RequestError>>()

        Ping(base: endpoint.base).perform(session: StubURLProtocol.session, completion: probe.handler)

        #expect(try #require(await probe.first()).get() == "pong")
        #expect(endpoint.receivedRequests.count == 1)
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
    }

    @Test("without progress, URLSessionTransport answers once with the body; its task is the request's data task")
    func sendWithoutProgressIsADataTask() async throws {
        let endpoint = StubEndpoint(.status(200, body: "direct"))
        let probe = CompletionProbe<Result<TransportResponse, any Error>>()

        let task = stubbedTransport().send(URLRequest(url: endpoint.base), progress: nil, completion: probe.handler)

        #expect(task is URLSessionDataTask)
        let response = try #require(await probe.first()).get()
        #expect(response.data == Data("direct".utf8))
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
    }

    @Test("cancelling URLSessionTransport's send without progress reports URLError(.cancelled), once")
    func cancelWithoutProgress() async throws {
        let endpoint = StubEndpoint(.status(200, delay: 30))
        let probe = CompletionProbe<Result<TransportResponse, any Error>>()

        let task = stubbedTransport().send(URLRequest(url: endpoint.base), progress: nil, completion: probe.handler)
        task.cancel()

        let result = try #require(await probe.first())
        #expect((result.errorValue as? URLError)?.code == .cancelled)
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
    }

    @Test("with progress, URLSessionTransport goes through its delegate, and reports the body received")
    func sendWithProgress() async throws {
        let body = String(repeating: "p", count: 3000)
        let endpoint = StubEndpoint(.status(200, body: body, headers: ["Content-Length": "3000"]))
        let recorder = ProgressRecorder()
        let probe = CompletionProbe<Result<String, RequestError>>()

        Ping(base: endpoint.base).perform(
            using: Session(transport: stubbedTransport()), progress: recorder.handler,
            completion: probe.handler { _ in recorder.markCompleted() })

        #expect(try #require(await probe.first()).get() == body)
        #expect(recorder.all.last?.bytesReceived == 3000)
        #expect(recorder.lateSteps.withLock { $0 } == 0)
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
    }
}

@Suite("URLSessionTransport reflects only what cannot change under a Mirror")
struct URLSessionTransportReflectionTests {
    @Test("dump(_:) of a transport while 200 transfers run shows its spool directory, and does not crash")
    func dumpWhileTransfersRun() async throws {
        let transport = stubbedTransport()
        let endpoint = StubEndpoint(.status(200, body: "x"))
        let tally = CompletionTally(count: 200)
        let recorder = ProgressRecorder()
        for index in 0..<200 {
            _ = transport.send(
                URLRequest(url: endpoint.base), progress: recorder.handler,
                completion: tally.completion(for: index) { (_: Result<TransportResponse, any Error>) in })
        }
        var text = ""
        for _ in 0..<200 {
            text = ""
            dump(Session(transport: transport), to: &text)
        }
        #expect(text.contains("spoolDirectory"))
        #expect(!text.contains("router"), "the delegate's state is reflected: \(text)")
        #expect(await tally.waitForAll(), "not every transfer completed")
        #expect(await tally.released(), "a completion is still held")
        #expect(tally.snapshot.allSatisfy { $0 == 1 })
    }
}
