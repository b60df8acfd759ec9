import APIKitTestSupport
import Foundation
import Testing

@Suite("CompletionProbe")
struct CompletionProbeTests {
    @Test("first waits for the first call and every waiter gets it; later calls are counted, not returned")
    func firstCall() async {
        let probe = CompletionProbe<Int>()
        async let one = probe.first()
        async let two = probe.first()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { probe.record(1) }
        #expect(await [one, two] == [1, 1])
        probe.record(2)
        #expect(await probe.first(timeout: 0) == 1)
        #expect(probe.all == [1, 2])
        #expect(probe.count == 2)
    }

    @Test("nothing recorded within the timeout is nil, and a late call is still recorded")
    func timeout() async {
        let probe = CompletionProbe<Int>()
        #expect(await probe.first(timeout: 0.1) == nil)
        probe.record(7)
        #expect(probe.all == [7])
        #expect(await probe.first(timeout: 0.1) == 7)
    }
}

@Suite("CompletionProbe timing")
struct CompletionProbeTimingTests {
    @Test("firstRecordedAt is the instant of the first call, not of a later one")
    func firstRecordedAt() async throws {
        let probe = CompletionProbe<Int>()
        #expect(probe.firstRecordedAt == nil)
        let before = ContinuousClock.now
        probe.record(1)
        let after = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(20))
        probe.record(2)
        let first = try #require(probe.firstRecordedAt)
        #expect(first >= before && first <= after)
    }
}
