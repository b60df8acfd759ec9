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
        let lines = LogLines()
        let steps = Locked<[TransferProgress]>([])
        let session = Session(
            transport: transport,
            retryPolicy: WaitRecorder().policy(),
            logger: lines.logger()
        ).timed(by: WaitRecorder())
        let text = try await TextRequest().response(
            using: session, progress: { step in steps.withLock { $0.append(step) } })
        #expect(text == "ok")
        #expect(calls.withLock { $0 } == 2)
        #expect(lines.all.count == 4)
        #expect(lines.requests.count == 2)
        #expect(lines.responses.map(\.status) == [503, 200])
        // each attempt's body reported: the 503's 4 bytes, then the 200's 2
        let received = steps.withLock { $0 }.map(\.bytesReceived)
        #expect(received.contains(4) && received.last == 2, "progress from each attempt: \(received)")
    }
}
