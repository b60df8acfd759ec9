import APIKit
import APIKitTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `/traffic/…` route of the fault server, for one test's `key`.
struct TrafficRoute: Request, RequestConfiguration {
    var path: String
    @Query("key") var key: String = ""
    /// `/traffic/limited`: the seconds of the 429 window.
    @Query("window") var window: Double? = nil
    /// `/traffic/slow`: the seconds before the answer, and its status.
    @Query("delay") var delay: Double? = nil
    @Query("status") var status: Int? = nil
    var base = FaultServer.url ?? URL(string: "http://127.0.0.1:9")!
    var method: HTTPMethod = .get
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    var options: RequestOptions { RequestOptions(timeout: 30) }

    /// What the server counted for `key`.
    struct Stats: Decodable {
        var arrivals: Int
        var inWindow: Int
        var maxConcurrent: Int
        var statuses: [String: Int]
    }

    static func stats(_ key: String) async throws -> Stats {
        let data = try await TrafficRoute(path: "traffic/stats", key: key).response(
            using: Session(transport: TestTransport.make()))
        return try JSONDecoder().decode(Stats.self, from: data)
    }

    func result(_ session: Session) async -> Result<Data, RequestError> {
        do { return .success(try await response(using: session)) } catch { return .failure(error) }
    }
}

/// The traffic middlewares against a real server, over the suite's transport. Timings are
/// measured by the server and bounded only where the margin is wide.
@Suite(
    "Traffic control against a real server", .serialized,
    .enabled(if: FaultServer.url != nil, FaultServer.skipReason))
struct TrafficTests {
    @Test("After a 429 with Retry-After: 2, none of 50 callers reaches the host in the window, and all succeed after")
    func retryAfterPausesTheHost() async throws {
        let key = UUID().uuidString
        let session = Session(transport: TestTransport.make(), interceptors: [TrafficControl()])
        let opener = await TrafficRoute(path: "traffic/limited", key: key, window: 2).result(session)
        #expect(opener.failure?.statusCode == 429)
        let results = await withTaskGroup(of: Result<Data, RequestError>.self) { group in
            for _ in 0..<50 {
                group.addTask { await TrafficRoute(path: "traffic/limited", key: key, window: 2).result(session) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(
            results.allSatisfy { (try? $0.get()) != nil },
            "\(results.compactMap(\.failure).first.map { "\($0)" } ?? "")")
        let stats = try await TrafficRoute.stats(key)
        #expect(stats.inWindow == 1, "only the call that opened the window arrived in it")
        #expect(stats.arrivals == 51)
        #expect(stats.statuses == ["429": 1, "200": 50])
    }

    @Test("The retry of the call that got the 429 is sent once, after the window")
    func retryAfterTheWindow() async throws {
        let key = UUID().uuidString
        let session = Session(
            transport: TestTransport.make(), interceptors: [TrafficControl()],
            retryPolicy: RetryPolicy(maxAttempts: 3, maxRetryAfter: 10))
        let result = await TrafficRoute(path: "traffic/limited", key: key, window: 1).result(session)
        #expect((try? result.get()) != nil)
        let stats = try await TrafficRoute.stats(key)
        #expect(stats.statuses == ["429": 1, "200": 1])
        #expect(stats.inWindow == 1)
    }

    @Test("With 4 per host, 100 calls never have more than 4 in flight, and another host is not held up")
    func perHostLimit() async throws {
        let key = UUID().uuidString
        let traffic = TrafficControl(maxCallsInFlightPerHost: 4)
        let session = Session(transport: TestTransport.make(), interceptors: [traffic])
        let finished = Protected(0)
        async let limited: [Result<Data, RequestError>] = withTaskGroup(of: Result<Data, RequestError>.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    let result = await TrafficRoute(path: "traffic/slow", key: key, delay: 0.2).result(session)
                    finished.withLock { $0 += 1 }
                    return result
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        // 100 calls of 0.2 s, 4 at a time, take 5 s: a call to another host (httpbin, another
        // port) made while they wait ends long before them.
        #expect(await eventually { ((try? await TrafficRoute.stats(key))?.arrivals ?? 0) >= 4 })
        if let httpbin = HTTPBin.url {
            var other = TrafficRoute(path: "get", key: key)
            other.base = httpbin
            #expect((try? await other.result(session).get()) != nil)
            #expect(finished.withLock { $0 } < 90, "the other host's call waited for the first host's calls")
        }
        let results = await limited
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        let stats = try await TrafficRoute.stats(key)
        #expect(stats.arrivals == 100)
        #expect(stats.maxConcurrent <= 4)
        #expect(stats.maxConcurrent >= 2, "calls did run side by side")
    }

    @Test("Cancelling calls waiting for a slot sends nothing, and each completion is called once")
    func cancelQueuedCalls() async throws {
        let key = UUID().uuidString
        let queued = Protected(0)
        let session = Session(
            transport: TestTransport.make(), interceptors: [TrafficControl(maxCallsInFlightPerHost: 1)]
        ) { event in
            if case .queued = event.stage { queued.withLock { $0 += 1 } }
        }
        // held 10 s: the five calls queue behind it and are cancelled well within that, however
        // loaded the machine
        let holder = Task { await TrafficRoute(path: "traffic/slow", key: key, delay: 10).result(session) }
        #expect(await eventually { ((try? await TrafficRoute.stats(key))?.arrivals ?? 0) == 1 })
        let completions = Protected(0)
        let probe = CompletionProbe<RequestError.Stage?>()
        var handles: [RequestHandle] = []
        for _ in 0..<5 {
            handles.append(
                TrafficRoute(path: "traffic/slow", key: key, delay: 0).perform(using: session) { result in
                    completions.withLock { $0 += 1 }
                    if case .failure(let error) = result { probe.record(error.stage) } else { probe.record(nil) }
                })
        }
        // cancelled while they wait in the queue, not before they reach it
        #expect(await eventually { queued.withLock { $0 } == 5 }, "the calls did not queue behind the holder")
        for handle in handles { handle.cancel() }
        #expect((try? await holder.value.get()) != nil)
        #expect(await eventually { completions.withLock { $0 } == 5 })
        let stats = try await TrafficRoute.stats(key)
        #expect(stats.arrivals == 1, "no cancelled call reached the server")
        #expect(completions.withLock { $0 } == 5)
    }

    @Test("During a total outage, 100 callers with 3 attempts send at most 100 × (1 + ratio) + floor")
    func outageIsBoundedByTheBudget() async throws {
        let key = UUID().uuidString
        // a floor of 0.1 × 60 = 6 retries: the bound holds however slow the machine is
        let budget = RetryBudget(ratio: 0.2, minimumPerSecond: 0.1, window: 60)
        let policy = RetryPolicy(
            maxAttempts: 3, backoff: .init(baseDelay: 0.02, maxDelay: 0.05), budget: budget)
        let session = Session(transport: TestTransport.make(), retryPolicy: policy)
        let results = await withTaskGroup(of: Result<Data, RequestError>.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    await TrafficRoute(path: "traffic/slow", key: key, delay: 0, status: 503).result(session)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.failure?.statusCode == 503 })
        #expect(results.contains { $0.failure?.context.retryRefusal == .budgetExhausted })
        let stats = try await TrafficRoute.stats(key)
        #expect(stats.arrivals <= 100 + 20 + 6, "\(stats.arrivals) attempts reached the server, not 300")
        #expect(stats.arrivals >= 100)
    }

}

/// Whether `condition` holds within 60 s, checked every 20 ms: a wait for a state, with no
/// bound on how soon it comes.
private func eventually(_ condition: @Sendable () async -> Bool) async -> Bool {
    for _ in 0..<3_000 {
        if await condition() { return true }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return false
}
