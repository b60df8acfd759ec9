@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

/// Retries and token refreshes send a request several times; each attempt is a request on
/// the wire, so each is logged and reports its progress as a single send does.
@Suite("Observing retried requests: every attempt is logged and reports progress")
struct RetryObservationTests {
    @Test("503 then 200 with a retry policy: two requests and two responses logged, progress from both attempts")
    func attemptsAreObserved() async throws {
        let (transport, calls) = CallEventRoadTests.answering(first: .success(status: 503, body: "busy"))
        let events = Locked<[RequestLogEvent]>([])
        let steps = Locked(0)
        let session = Session(
            transport: transport,
            retryPolicy: WaitRecorder().policy(),
            logger: RequestLogger { event in events.withLock { $0.append(event) } }
        ).timed(by: WaitRecorder())
        let text = try await TextRequest().response(using: session, progress: { _ in steps.withLock { $0 += 1 } })
        #expect(text == "ok")
        #expect(calls.withLock { $0 } == 2)
        let logged = events.withLock { $0 }
        let requests = logged.filter { if case .request = $0 { true } else { false } }
        let statuses = logged.compactMap { event -> Int? in
            if case .response(let response) = event { response.statusCode } else { nil }
        }
        #expect(requests.count == 2)
        #expect(statuses == [503, 200])
        #expect(steps.withLock { $0 } >= 2, "progress from each attempt")
    }
}
