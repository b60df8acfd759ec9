import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

/// The logger reads the call's events: every road logs every attempt, and the logger and an
/// observer of the events see the same attempts.
@Suite("RequestLogger on every road: one consumer of the call's events")
struct RequestLoggerRoadTests {
    typealias Road = CallEventRoadTests.Road

    /// A session over `transport` that retries at once, on a clock nobody waits for.
    private static func retrying(
        _ transport: StubTransport, logger: RequestLogger, onCallEvent: (@Sendable (CallEvent) -> Void)? = nil
    ) -> Session {
        Session(
            transport: transport, retryPolicy: RetryPolicy(backoff: .init(baseDelay: 0, jitter: false)),
            logger: logger, onCallEvent: onCallEvent
        ).timed(by: WaitRecorder())
    }

    @Test("A 503 retried: both requests and both responses logged, paired, on every road", arguments: Road.allCases)
    func retried(road: Road) async throws {
        let recorder = LogRecorder()
        let (transport, _) = CallEventRoadTests.answering(first: .success(status: 503, body: "busy"))
        let session = Self.retrying(transport, logger: recorder.logger())
        #expect(try await road.run(session))
        #expect(await eventually { recorder.responses.count == 2 })
        let requests = recorder.requests
        let responses = recorder.responses
        #expect(requests.count == 2)
        #expect(responses.map(\.statusCode) == [503, 200])
        #expect(responses.map(\.request.id) == requests.map(\.id))
        #expect(responses.last?.bodySize == 2)
        // A body in memory is logged whole; a stream's or a download's given up for the retry is not read.
        #expect(responses.first?.bodySize == (road == .response || road == .perform ? 4 : nil))
    }

    @Test("A transport failure retried: the failure by its code, then the response", arguments: Road.allCases)
    func transportFailureRetried(road: Road) async throws {
        let recorder = LogRecorder()
        let (transport, _) = CallEventRoadTests.answering(first: .failure(URLError(.networkConnectionLost)))
        let session = Self.retrying(transport, logger: recorder.logger())
        #expect(try await road.run(session))
        #expect(await eventually { recorder.responses.count == 2 })
        let responses = recorder.responses
        #expect(responses.map(\.error) == ["URLError \(URLError.networkConnectionLost.rawValue)", nil])
        #expect(responses.map(\.statusCode) == [nil, 200])
    }

    @Test("A logger and an observer together: a request line for each requestSent, a response for each head")
    func loggerBesideObserver() async throws {
        let recorder = LogRecorder()
        let events = CallEventLog()
        let (transport, _) = CallEventRoadTests.answering(first: .success(status: 503, body: "busy"))
        let session = Self.retrying(transport, logger: recorder.logger(), onCallEvent: events.observer)
        #expect(try await TextRequest().response(using: session) == "ok")
        #expect(await events.waitForEnds())
        #expect(events.names.filter { $0 == "requestSent" }.count == recorder.requests.count)
        #expect(events.names.filter { $0.hasPrefix("responseHead") }.count == recorder.responses.count)
        #expect(recorder.responses.map(\.statusCode) == [503, 200])
    }

    @Test("A response given up before its body was read says so")
    func bodyNotReadDescription() {
        let request = LoggedRequest(
            id: 7, urlRequest: URLRequest(url: URL(string: "https://api.example.test/a")!), requestType: "R",
            privacy: LogPrivacy())
        let head = HTTPURLResponse(
            url: URL(string: "https://api.example.test/a")!, statusCode: 503, httpVersion: nil, headerFields: nil)!
        let response = LoggedResponse(
            request: request, response: head, bodySize: nil, elapsed: 0.25, privacy: LogPrivacy())
        #expect(response.description == "← #7 503 GET https://api.example.test/a (R) 0.250 s, body not read")
    }
}
