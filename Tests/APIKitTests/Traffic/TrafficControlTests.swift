import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

@Suite("Traffic control: limits with a queue, in arrival order, per host")
struct TrafficControlTests {
    @Test("Calls over the per-host limit are sent one by one in the order they came")
    func fifoPerHost() async throws {
        let rig = TrafficRig(maxCallsInFlightPerHost: 1)
        var tasks: [Task<Result<String, RequestError>, Never>] = []
        for path in ["a", "b", "c", "d"] {
            tasks.append(await rig.start(path))
        }
        #expect(rig.transport.paths == ["a"])
        #expect(rig.traffic.waitingCount == 3)
        for sent in 1...4 {
            #expect(await rig.transport.waitForHeld(1))
            #expect(rig.transport.arrivals.count == sent, "one call in flight at a time")
            rig.transport.answer()
        }
        for task in tasks { #expect(try await task.value.get() == "ok") }
        #expect(rig.transport.paths == ["a", "b", "c", "d"])
    }

    @Test("A call whose transport fails gives its host's slot back: the next call goes")
    func slotBackAfterTransportError() async throws {
        let rig = TrafficRig(maxCallsInFlightPerHost: 1)
        let first = await rig.start("a")
        let second = await rig.start("b")
        #expect(rig.transport.paths == ["a"])
        #expect(rig.traffic.waitingCount == 1)
        rig.transport.fail(with: URLError(.cannotConnectToHost))
        guard case .transportFailed(let error, _)? = await first.value.errorValue else {
            Issue.record("expected transportFailed, got \(await first.value)")
            return
        }
        #expect((error as? URLError)?.code == .cannotConnectToHost)
        guard await rig.transport.waitForHeld(1) else {
            Issue.record("the second call was not sent: the failed call kept its slot")
            second.cancel()
            return
        }
        #expect(rig.transport.paths == ["a", "b"])
        rig.transport.answer()
        #expect(try await second.value.get() == "ok")
        #expect(rig.traffic.queue.inFlightCount == 0)
    }

    @Test("A full host does not hold up calls to another host")
    func hostsAreIndependent() async throws {
        let rig = TrafficRig(maxCallsInFlightPerHost: 1)
        let first = await rig.start("a")
        let queued = await rig.start("b")
        let other = await rig.start("x", base: otherBase)
        #expect(rig.transport.paths == ["a", "x"])
        rig.transport.answer(host: "other.example.test")
        #expect(try await other.value.get() == "ok")
        #expect(rig.traffic.waitingCount == 1)
        rig.transport.answer()
        #expect(await rig.transport.waitForHeld(1))
        rig.transport.answer()
        #expect(try await first.value.get() == "ok")
        #expect(try await queued.value.get() == "ok")
        #expect(rig.transport.paths == ["a", "x", "b"])
    }

    @Test("Under the global limit, the call that came first goes first, whatever its host")
    func globalLimitInArrivalOrder() async throws {
        let rig = TrafficRig(maxCallsInFlight: 2)
        let a1 = await rig.start("a1")
        let a2 = await rig.start("a2")
        let x1 = await rig.start("x1", base: otherBase)
        let a3 = await rig.start("a3")
        #expect(rig.transport.paths == ["a1", "a2"])
        rig.transport.answer()
        #expect(await eventually { rig.transport.arrivals.count == 3 })
        #expect(rig.transport.paths == ["a1", "a2", "x1"])
        rig.transport.answer()
        #expect(await eventually { rig.transport.arrivals.count == 4 })
        #expect(rig.transport.paths == ["a1", "a2", "x1", "a3"])
        rig.transport.answer()
        rig.transport.answer()
        for task in [a1, a2, x1, a3] { #expect(try await task.value.get() == "ok") }
        #expect(rig.traffic.queue.inFlightCount == 0)
    }

    @Test("Cancelling a waiting call sends nothing and frees its place in the queue")
    func cancelWaitingTask() async throws {
        let rig = TrafficRig(maxCallsInFlightPerHost: 1)
        let first = await rig.start("a")
        let cancelled = await rig.start("b")
        let last = await rig.start("c")
        rig.clock.advance(by: .seconds(1))
        cancelled.cancel()
        let error = try #require(await cancelled.value.errorValue)
        #expect(error.stage == .cancelled)
        #expect(rig.traffic.waitingCount == 1)
        rig.transport.answer()
        #expect(await rig.transport.waitForHeld(1))
        rig.transport.answer()
        #expect(try await first.value.get() == "ok")
        #expect(try await last.value.get() == "ok")
        #expect(rig.transport.paths == ["a", "c"], "the cancelled call was never sent")
        // b's wait ended when it was cancelled, c's when a's slot came free, after the clock's 1 s
        #expect(
            rig.waits == [
                .init(host: "api.example.test", path: "b", waited: nil),
                .init(host: "api.example.test", path: "c", waited: .seconds(1)),
            ])
    }

    @Test("Cancelling a waiting perform sends nothing and completes once, with cancelled")
    func cancelWaitingPerform() async throws {
        let rig = TrafficRig(maxCallsInFlightPerHost: 1)
        let first = await rig.start("a")
        let completions = Locked(0)
        let probe = CompletionProbe<Result<String, RequestError>>()
        let handle = TextRequest(path: "b").perform(using: rig.session) { result in
            completions.withLock { $0 += 1 }
            probe.record(result)
        }
        #expect(await rig.traffic.waitForWaiting(1))
        handle.cancel()
        let outcome = try #require(await probe.first())
        #expect(outcome.errorValue?.stage == .cancelled)
        #expect(await eventually { rig.traffic.waitingCount == 0 })
        rig.transport.answer()
        #expect(try await first.value.get() == "ok")
        #expect(completions.withLock { $0 } == 1)
        #expect(rig.transport.paths == ["a"])
        #expect(rig.traffic.queue.inFlightCount == 0)
    }

    @Test("A call that waited is reported with the time it waited on the clock; one that did not is not")
    func waitIsReported() async throws {
        let rig = TrafficRig(maxCallsInFlightPerHost: 1)
        let first = await rig.start("a")
        let second = await rig.start("b")
        rig.clock.advance(by: .seconds(3))
        rig.transport.answer()
        #expect(await rig.transport.waitForHeld(1))
        rig.transport.answer()
        _ = await (first.value, second.value)
        #expect(rig.waits == [.init(host: "api.example.test", path: "b", waited: .seconds(3))])
    }

    @Test("Without limits nothing waits, and the slots are given back after failures too")
    func noLimitByDefault() async throws {
        let rig = TrafficRig()
        var tasks: [Task<Result<String, RequestError>, Never>] = []
        for index in 0..<20 {
            tasks.append(Task { await TextRequest(path: "p\(index)").result(session: rig.session) })
        }
        #expect(await rig.transport.waitForHeld(20))
        #expect(rig.traffic.waitingCount == 0)
        for _ in 0..<10 { rig.transport.answer() }
        for _ in 0..<10 { rig.transport.answer(status: 500) }
        for task in tasks { _ = await task.value }
        #expect(rig.traffic.queue.inFlightCount == 0)
    }

    @Test(
        "Settings that cannot be followed fail the call with a build error naming them; nothing is sent",
        arguments: [
            (TrafficControl(maxCallsInFlight: 0, clock: ManualClock()), "maxCallsInFlight 0"),
            (TrafficControl(maxCallsInFlightPerHost: -2, clock: ManualClock()), "maxCallsInFlightPerHost -2"),
            (TrafficControl(maxPause: .nan, clock: ManualClock()), "maxPause nan"),
            (TrafficControl(maxPause: -1, clock: ManualClock()), "maxPause -1.0"),
            (TrafficControl(maxPause: .infinity, clock: ManualClock()), "maxPause inf"),
            (TrafficControl(requestsPerSecondPerHost: 0, clock: ManualClock()), "requestsPerSecondPerHost 0.0"),
            (TrafficControl(requestsPerSecondPerHost: -2, clock: ManualClock()), "requestsPerSecondPerHost -2.0"),
            (TrafficControl(requestsPerSecondPerHost: .nan, clock: ManualClock()), "requestsPerSecondPerHost nan"),
            (
                TrafficControl(requestsPerSecondPerHost: .infinity, clock: ManualClock()),
                "requestsPerSecondPerHost inf"
            ),
            (
                TrafficControl(requestsPerSecondPerHost: 5, burstPerHost: 0, clock: ManualClock()),
                "burstPerHost 0 is below 1"
            ),
            (TrafficControl(burstPerHost: -1, clock: ManualClock()), "burstPerHost -1 is below 1"),
            (
                TrafficControl(burstPerHost: 20, clock: ManualClock()),
                "burstPerHost 20 is set without requestsPerSecondPerHost"
            ),
        ])
    func invalidSettings(traffic: TrafficControl, named: String) async throws {
        let transport = GateTransport()
        let session = Session(transport: transport, interceptors: [traffic])
        let error = try #require(await TextRequest().result(session: session).errorValue)
        guard case .buildFailed(.invalidTrafficControl(let reason), _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(reason.hasPrefix(named))
        #expect(error.description.contains("traffic control cannot be followed: \(named)"))
        #expect(transport.arrivals.isEmpty)
    }
}

@Suite("Traffic control: the hosts it keeps")
struct TrafficHostTests {
    @Test("Calls to many hosts leave at most idleHostsKept idle entries, none in flight")
    func idleHostsAreBounded() async throws {
        let transport = StubTransport { _ in .success(body: "ok") }
        let traffic = TrafficControl(maxCallsInFlightPerHost: 2, clock: ManualClock())
        let session = Session(transport: transport, interceptors: [traffic])
        for index in 0..<(TrafficQueue.idleHostsKept * 3) {
            let base = try #require(URL(string: "https://host\(index).example.test"))
            #expect(try await TextRequest(base: base, path: "a").result(session: session).get() == "ok")
        }
        #expect(traffic.queue.knownHostCount == TrafficQueue.idleHostsKept)
        #expect(traffic.queue.inFlightCount == 0)
    }

    @Test("Hosts paused by a Retry-After are forgotten once their pauses have passed")
    func pausedHostsAreForgotten() async throws {
        let clock = ManualClock()
        let transport = StubTransport { _ in .success(status: 429, headers: ["Retry-After": "1"], body: "") }
        let traffic = TrafficControl(clock: clock)
        let session = Session(transport: transport, interceptors: [traffic])
        let hosts = TrafficQueue.idleHostsKept * 3
        for index in 0..<hosts {
            let base = try #require(URL(string: "https://host\(index).example.test"))
            #expect(
                await TextRequest(base: base, path: "a").result(session: session).errorValue?.stage
                    == .responseValidation)
        }
        #expect(traffic.queue.knownHostCount == hosts, "each host is paused")
        #expect(await eventually { clock.sleeperCount == hosts })
        clock.advance(by: .seconds(1))
        #expect(await eventually { traffic.queue.knownHostCount == 0 }, "\(traffic.queue.knownHostCount) hosts kept")
    }

    @Test("Hosts whose bucket refills after their last call are forgotten: the hosts known stay bounded")
    func ratedHostsAreBounded() async throws {
        let clock = ManualClock()
        let traffic = TrafficControl(requestsPerSecondPerHost: 1, clock: clock)
        let session = Session(transport: StubTransport { _ in .success(body: "ok") }, interceptors: [traffic])
        var most = 0
        for index in 0..<(TrafficQueue.idleHostsKept * 6) {
            let base = try #require(URL(string: "https://host\(index).example.test"))
            #expect(try await TextRequest(base: base, path: "a").result(session: session).get() == "ok")
            clock.advance(by: .seconds(1))
            most = max(most, traffic.queue.knownHostCount)
        }
        #expect(most <= 2 * TrafficQueue.idleHostsKept + 1, "up to \(most) hosts kept")
    }

    @Test(
        "A host is counted case-insensitively, without a trailing dot or its scheme's default port, IPv6 in brackets",
        arguments: [
            ("https://API.Example.TEST/x", "api.example.test"),
            ("http://localhost:8080/x", "localhost:8080"),
            ("https://api.example.test/x", "api.example.test"),
            ("https://api.example.test:443/x", "api.example.test"),
            ("http://api.example.test:80/x", "api.example.test"),
            ("https://api.example.test:80/x", "api.example.test:80"),
            ("http://api.example.test:443/x", "api.example.test:443"),
            ("wss://api.example.test:443/x", "api.example.test"),
            ("https://api.example.test./x", "api.example.test"),
            ("http://[::1]:8080/x", "[::1]:8080"),
            ("http://[::1:8080]/x", "[::1:8080]"),
            ("https://[::1]:443/x", "[::1]"),
        ])
    func hostKey(url: String, key: String) throws {
        #expect(try #require(URL(string: url)).trafficHost == key)
    }

    @Test("A stream gives its host's slot back at its response head, while its body still arrives")
    func streamFreesItsSlotAtTheHead() async throws {
        let traffic = TrafficControl(maxCallsInFlightPerHost: 1, clock: ManualClock())
        let transport = ManualTransport(initial: [.response(ManualTransport.ok), .data(Data("a".utf8))])
        let session = Session(transport: transport, interceptors: [traffic])
        var chunks = StreamedRequest().stream(using: session).makeAsyncIterator()
        #expect(try await chunks.next() == Data("a".utf8))
        #expect(traffic.queue.inFlightCount == 0, "the open stream still holds its slot")
        transport.push([.data(Data("b".utf8)), .finished])
        #expect(try await chunks.next() == Data("b".utf8))
        #expect(try await chunks.next() == nil)
    }

    @Test("A download holds its host's slot until its file is complete", arguments: [false, true])
    func downloadHoldsItsSlotToTheEnd(resumable: Bool) async throws {
        let scratch = try ScratchDirectory("traffic")
        defer { scratch.remove() }
        let traffic = TrafficControl(maxCallsInFlightPerHost: 1, clock: ManualClock())
        let head = HTTPURLResponse(
            url: stubBase, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Length": "2"])!
        let transport = ManualTransport(initial: [.response(head), .data(Data("a".utf8))])
        let session = Session(transport: transport, interceptors: [traffic])
        let (written, wrote) = AsyncStream<Void>.makeStream()
        let destination = scratch.url.appendingPathComponent("file")
        let download = Task {
            try await StreamedRequest().download(to: destination, using: session, resumable: resumable) { step in
                if step.bytesReceived > 0 { wrote.yield() }
            }
        }
        for await _ in written { break }
        #expect(traffic.queue.inFlightCount == 1, "the slot was given back before the file was complete")
        transport.push([.data(Data("b".utf8)), .finished])
        #expect(try await download.value.byteCount == 2)
        #expect(traffic.queue.inFlightCount == 0)
    }

    @Test("Cancelling a call in flight gives its host's slot back: the waiting call goes")
    func cancelInFlightFreesTheSlot() async throws {
        let rig = TrafficRig(maxCallsInFlightPerHost: 1)
        let first = rig.call("first")
        #expect(await rig.transport.waitForHeld(1))
        let second = rig.call("second")
        #expect(await rig.traffic.waitForWaiting(1))
        first.cancel()
        guard case .failure(.cancelled) = await first.value else {
            Issue.record("expected cancelled, got \(await first.value)")
            return
        }
        #expect(await rig.transport.waitForArrivals(2))
        #expect(rig.transport.paths == ["first", "second"])
        rig.transport.answer(host: nil)
        rig.transport.answer(host: nil)
        #expect(try await second.value.get() == "ok")
        #expect(rig.traffic.queue.inFlightCount == 0)
    }

    @Test("A host whose queue never empties keeps only the calls still waiting, not every call it admitted")
    func queueOfABusyHostStaysSmall() async throws {
        let queue = TrafficQueue(total: nil, perHost: 1, clock: TrafficClock(ManualClock()))
        #expect(queue.tryAcquire("busy"))
        var admitted: [Task<Void, any Error>] = []
        // two calls always waiting: each release admits the oldest, and a new one joins
        for _ in 0..<2 { admitted.append(Task { _ = try await queue.acquire("busy") }) }
        for round in 0..<300 {
            #expect(await eventually { queue.waitingCount == 2 }, "round \(round): the calls did not queue")
            queue.release("busy")
            admitted.append(Task { _ = try await queue.acquire("busy") })
        }
        #expect(await eventually { queue.waitingCount == 2 })
        // 2 waiting, and at most half the list admitted and not yet dropped
        #expect(queue.storedWaiterCount <= 2 + 32, "\(queue.storedWaiterCount) waiters stored")
        for task in admitted { task.cancel() }
    }
}
