import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

@Suite("Traffic control: a rate per host, as a token bucket")
struct TrafficRateTests {
    @Test("A burst goes at once; then one call each 1/rate, in the order they came")
    func burstThenSpaced() async throws {
        let rig = TrafficRig(requestsPerSecondPerHost: 2, burstPerHost: 2)
        var tasks: [Task<Result<String, RequestError>, Never>] = []
        for path in ["a", "b", "c", "d"] {
            tasks.append(await rig.start(path))
        }
        #expect(rig.transport.paths == ["a", "b"], "the burst")
        #expect(rig.traffic.waitingCount == 2)

        // the host's timer is set for the next token, not before: a check right after a move of
        // the clock could not see a timer that fires early, which admits on another task
        #expect(await eventually { rig.clock.deadlines == [.milliseconds(500)] }, "\(rig.clock.deadlines)")
        rig.clock.advance(by: .milliseconds(499))
        #expect(rig.traffic.waitingCount == 2, "no token before half a second")
        rig.clock.advance(by: .milliseconds(1))
        #expect(await rig.transport.waitForArrivals(3))
        #expect(rig.transport.paths == ["a", "b", "c"])

        rig.clock.advance(by: .milliseconds(500))
        #expect(await rig.transport.waitForArrivals(4))
        #expect(rig.transport.paths == ["a", "b", "c", "d"])
        for _ in 0..<4 { rig.transport.answer() }
        for task in tasks { #expect(try await task.value.get() == "ok") }
    }

    @Test("A rate so low that the next token is ages away holds the host for at most 10⁹ s, without a crash")
    func tinyRate() async throws {
        let rig = TrafficRig(requestsPerSecondPerHost: 1e-21)
        let first = await rig.start("first")
        let held = await rig.start("held")
        #expect(rig.traffic.waitingCount == 1)
        #expect(await rig.paused())
        #expect(rig.clock.deadlines == [.seconds(1_000_000_000)])
        held.cancel()
        #expect(await held.value.errorValue?.stage == .cancelled)
        rig.transport.answer()
        #expect(try await first.value.get() == "ok")
    }

    @Test("Each host has its own bucket: an empty one holds up no other host")
    func hostsHaveTheirOwnBuckets() async throws {
        let rig = TrafficRig(requestsPerSecondPerHost: 1)
        let first = await rig.start("first")
        let held = await rig.start("held")
        #expect(rig.traffic.waitingCount == 1)
        let other = await rig.start("other", base: otherBase)
        #expect(await rig.transport.waitForArrivals(2), "the other host's first call goes at once")
        #expect(rig.transport.paths == ["first", "other"])
        rig.clock.advance(by: .seconds(1))
        #expect(await rig.transport.waitForArrivals(3))
        for _ in 0..<3 { rig.transport.answer() }
        for task in [first, held, other] { #expect(try await task.value.get() == "ok") }
    }

    @Test("A quiet moment fills the bucket up to the burst, never beyond")
    func refillStopsAtBurst() async throws {
        let rig = TrafficRig(requestsPerSecondPerHost: 10, burstPerHost: 3)
        let opening = await rig.start("opening")
        rig.transport.answer()
        _ = await opening.value
        rig.clock.advance(by: .seconds(60))
        var tasks: [Task<Result<String, RequestError>, Never>] = []
        for index in 0..<5 {
            tasks.append(await rig.start("p\(index)"))
        }
        #expect(rig.transport.arrivals.count == 4, "the opening call and a burst of 3")
        #expect(rig.traffic.waitingCount == 2)
        rig.clock.advance(by: .milliseconds(200))
        #expect(await rig.transport.waitForArrivals(6))
        for _ in 0..<5 { rig.transport.answer() }
        for task in tasks { #expect(try await task.value.get() == "ok") }
    }

    @Test("A call waiting for a token can be cancelled: nothing is sent, and the next one takes its turn")
    func cancelWhileWaitingForToken() async throws {
        let rig = TrafficRig(requestsPerSecondPerHost: 1)
        let first = await rig.start("first")
        let cancelled = await rig.start("cancelled")
        let next = await rig.start("next")
        cancelled.cancel()
        let error = try #require(await cancelled.value.errorValue)
        guard case .cancelled = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(rig.traffic.waitingCount == 1)
        rig.clock.advance(by: .seconds(1))
        #expect(await rig.transport.waitForArrivals(2))
        #expect(rig.transport.paths == ["first", "next"])
        rig.transport.answer()
        rig.transport.answer()
        #expect(try await first.value.get() == "ok")
        #expect(try await next.value.get() == "ok")
    }

    @Test("A call that waited for its token is reported with the time it waited")
    func tokenWaitIsReported() async throws {
        let rig = TrafficRig(requestsPerSecondPerHost: 4)
        let first = await rig.start("first")
        let second = await rig.start("second")
        rig.clock.advance(by: .milliseconds(250))
        #expect(await rig.transport.waitForArrivals(2))
        rig.transport.answer()
        rig.transport.answer()
        _ = await (first.value, second.value)
        #expect(rig.waits == [.init(host: "api.example.test", path: "second", waited: .milliseconds(250))])
    }
}
