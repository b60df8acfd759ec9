import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

@Suite("Traffic control: a Retry-After pauses the whole host")
struct TrafficPauseTests {
    /// A call to `path` on `base`, started and awaited in a task.
    private static func call(_ path: String, base: URL = stubBase, session: Session)
        -> Task<Result<String, RequestError>, Never>
    {
        Task { await TextRequest(base: base, path: path).result(session: session) }
    }

    @Test(
        "A 429 or 503 with Retry-After holds new and waiting calls to the host until the time has passed",
        arguments: [429, 503])
    func pauseHoldsNewAndQueuedCalls(status: Int) async throws {
        let rig = TrafficRig(maxCallsInFlightPerHost: 1)
        let limited = rig.call("limited")
        #expect(await rig.transport.waitForHeld(1))
        let queued = rig.call("queued")
        #expect(await rig.traffic.waitForWaiting(1))
        rig.transport.answer(status: status, headers: ["Retry-After": "2"])
        #expect(try #require(await limited.value.errorValue).statusCode == status)
        #expect(await rig.paused())
        let new = rig.call("new")
        let other = rig.call("other", base: otherBase)
        #expect(await rig.traffic.waitForWaiting(2))
        #expect(await rig.transport.waitForHeld(1), "another host is not paused")
        rig.transport.answer(host: "other.example.test")
        #expect(try await other.value.get() == "ok")

        // the pause's timer is set for its end, not before (see TrafficRateTests)
        #expect(await eventually { rig.clock.deadlines == [.seconds(2)] }, "\(rig.clock.deadlines)")
        rig.clock.advance(by: .milliseconds(1_999))
        #expect(rig.traffic.waitingCount == 2)
        #expect(rig.transport.paths == ["limited", "other"], "nothing sent to the host during the pause")

        rig.clock.advance(by: .milliseconds(1))
        for sent in ["queued", "new"] {
            #expect(await rig.transport.waitForHeld(1))
            #expect(rig.transport.paths.last == sent, "the waiting call first, then the new one")
            rig.transport.answer()
        }
        #expect(try await queued.value.get() == "ok")
        #expect(try await new.value.get() == "ok")
    }

    @Test("The retry of the call that got the 429 waits for the pause too, and only once")
    func retryWaitsForPause() async throws {
        let transport = GateTransport()
        let clock = ManualClock()
        let traffic = TrafficControl(clock: clock)
        // The retry link's own wait returns at once: the retry reaches the pause early.
        let waits = WaitRecorder()
        let policy = RetryPolicy(maxAttempts: 2)
        let session = Session(transport: transport, interceptors: [traffic], retryPolicy: policy).timed(by: waits)
        let call = Self.call("retried", session: session)
        #expect(await transport.waitForHeld(1))
        transport.answer(status: 429, headers: ["Retry-After": "2"])
        #expect(await traffic.waitForWaiting(1), "the retry waits for the pause")
        #expect(waits.recorded == [2], "the retry link waited the Retry-After on its own clock")
        #expect(await eventually { clock.deadlines == [.seconds(2)] }, "\(clock.deadlines)")
        clock.advance(by: .seconds(1))
        #expect(transport.arrivals.count == 1)
        clock.advance(by: .seconds(1))
        #expect(await transport.waitForHeld(1))
        transport.answer()
        #expect(try await call.value.get() == "ok")
        #expect(transport.paths == ["retried", "retried"])
    }

    @Test("A Retry-After longer than maxPause pauses for maxPause; an HTTP date is read too")
    func pauseIsCapped() async throws {
        let rig = TrafficRig(maxPause: 5)
        let first = rig.call("first")
        #expect(await rig.transport.waitForHeld(1))
        let date = Date().addingTimeInterval(3_600)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        rig.transport.answer(status: 503, headers: ["Retry-After": formatter.string(from: date)])
        _ = await first.value
        #expect(await rig.paused())
        #expect(rig.clock.deadlines == [.seconds(5)])
        let second = rig.call("second")
        #expect(await rig.traffic.waitForWaiting(1))
        rig.clock.advance(by: .seconds(5))
        #expect(await rig.transport.waitForHeld(1))
        rig.transport.answer()
        #expect(try await second.value.get() == "ok")
    }

    @Test("A later Retry-After extends the pause; an earlier one does not shorten it")
    func pauseExtends() async throws {
        let rig = TrafficRig()
        let one = rig.call("one")
        let two = rig.call("two")
        #expect(await rig.transport.waitForHeld(2))
        rig.transport.answer(status: 429, headers: ["Retry-After": "4"])
        rig.transport.answer(status: 429, headers: ["Retry-After": "1"])
        _ = await (one.value, two.value)
        let three = rig.call("three")
        #expect(await rig.traffic.waitForWaiting(1))
        rig.clock.advance(by: .seconds(3))
        #expect(await eventually { rig.clock.sleeperCount == 1 })
        #expect(rig.traffic.waitingCount == 1, "still paused after the shorter Retry-After")
        rig.clock.advance(by: .seconds(1))
        #expect(await rig.transport.waitForHeld(1))
        rig.transport.answer()
        #expect(try await three.value.get() == "ok")
    }

    @Test(
        "No pause without Retry-After, for other statuses, or with maxPause 0",
        arguments: [
            (429, [:], 60.0), (500, ["Retry-After": "5"], 60.0), (429, ["Retry-After": "5"], 0.0),
            (503, ["Retry-After": "soon"], 60.0),
        ] as [(Int, [String: String], Double)])
    func noPause(status: Int, headers: [String: String], maxPause: Double) async throws {
        let rig = TrafficRig(maxPause: maxPause)
        let first = rig.call("first")
        #expect(await rig.transport.waitForHeld(1))
        rig.transport.answer(status: status, headers: headers)
        _ = await first.value
        let second = rig.call("second")
        #expect(await rig.transport.waitForHeld(1))
        rig.transport.answer()
        #expect(try await second.value.get() == "ok")
        #expect(rig.clock.sleeperCount == 0)
    }

    @Test("Cancelling a call held by a pause sends nothing")
    func cancelDuringPause() async throws {
        let rig = TrafficRig()
        let first = rig.call("first")
        #expect(await rig.transport.waitForHeld(1))
        rig.transport.answer(status: 429, headers: ["Retry-After": "2"])
        _ = await first.value
        let held = rig.call("held")
        #expect(await rig.traffic.waitForWaiting(1))
        held.cancel()
        #expect(await held.value.errorValue?.stage == .cancelled)
        rig.clock.advance(by: .seconds(2))
        #expect(await eventually { rig.clock.sleeperCount == 0 })
        #expect(rig.transport.paths == ["first"])
    }

    @Test("A pause ends when its timer fires, even when the clock then reads a moment before its end")
    func earlyTimer() async throws {
        let clock = ManualClock()
        let transport = GateTransport()
        let traffic = TrafficControl(clock: EarlyClock(base: clock))
        let session = Session(transport: transport, interceptors: [traffic])
        let first = Self.call("first", session: session)
        #expect(await transport.waitForHeld(1))
        transport.answer(status: 429, headers: ["Retry-After": "1"])
        #expect(await first.value.errorValue?.stage == .responseValidation)
        let second = Self.call("second", session: session)
        #expect(await traffic.waitForWaiting(1))
        clock.advance(by: .seconds(1) - .nanoseconds(1))
        let sent = await transport.waitForHeld(1)
        #expect(sent, "the paused host's call was never sent")
        if sent { transport.answer() } else { second.cancel() }
        #expect(await second.value.errorValue == nil)
    }
}

/// A clock whose sleeps end a nanosecond before their deadline, as a coarse clock's may.
private struct EarlyClock: Clock {
    let base: ManualClock

    var now: ManualClock.Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }

    func sleep(until deadline: ManualClock.Instant, tolerance: Duration?) async throws {
        try await base.sleep(until: deadline.advanced(by: .nanoseconds(-1)), tolerance: tolerance)
    }
}
