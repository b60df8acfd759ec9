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
        let lines = LogLines()
        let (transport, _) = CallEventRoadTests.answering(first: .success(status: 503, body: "busy"))
        let session = Self.retrying(transport, logger: lines.logger())
        #expect(try await road.run(session))
        #expect(await eventually { lines.responses.count == 2 })
        let requests = lines.requests
        let responses = lines.responses
        #expect(lines.all.count == 4)
        #expect(requests.count == 2)
        #expect(
            requests.map(\.line) == requests.map { "→ #\($0.id) GET https://api.example.test/v1/text (TextRequest)" })
        #expect(requests.map(\.curlCommand) == Array(repeating: "curl https://api.example.test/v1/text", count: 2))
        #expect(responses.map(\.status) == [503, 200])
        #expect(zip(responses, requests).allSatisfy { $0.answers($1) })
        #expect(responses.last?.bodySize == 2)
        // A body in memory is logged whole; a stream's or a download's given up for the retry is not read.
        let readWhole = road == .response || road == .perform
        #expect(responses.first?.bodySize == (readWhole ? 4 : nil))
        let first = try #require(responses.first)
        let elapsed = String(format: "%.3f s", first.elapsed)
        #expect(
            first.text
                == "← #\(requests[0].id) 503 GET https://api.example.test/v1/text (TextRequest) \(elapsed), "
                + (readWhole ? "4 bytes" : "body not read"))
    }

    @Test("A transport failure retried: the failure by its code, then the response", arguments: Road.allCases)
    func transportFailureRetried(road: Road) async throws {
        let lines = LogLines()
        let (transport, _) = CallEventRoadTests.answering(first: .failure(URLError(.networkConnectionLost)))
        let session = Self.retrying(transport, logger: lines.logger())
        #expect(try await road.run(session))
        #expect(await eventually { lines.responses.count == 2 })
        let responses = lines.responses
        #expect(responses.map(\.error) == ["URLError \(URLError.networkConnectionLost.rawValue)", nil])
        #expect(responses.map(\.status) == [nil, 200])
        #expect(responses.map(\.id) == lines.requests.map(\.id))
        #expect(responses.first?.text.contains(" failed GET https://api.example.test/v1/text (TextRequest) ") == true)
    }

    @Test("A logger and an observer together: a request line for each requestSent, a response for each head")
    func loggerBesideObserver() async throws {
        let lines = LogLines()
        let events = CallEventLog()
        let (transport, _) = CallEventRoadTests.answering(first: .success(status: 503, body: "busy"))
        let session = Self.retrying(transport, logger: lines.logger(), onCallEvent: events.observer)
        #expect(try await TextRequest().response(using: session) == "ok")
        #expect(await events.waitForEnds())
        #expect(events.names.filter { $0 == "requestSent" }.count == lines.requests.count)
        #expect(events.names.filter { $0.hasPrefix("responseHead") }.count == lines.responses.count)
        #expect(lines.responses.map(\.status) == [503, 200])
    }
}
