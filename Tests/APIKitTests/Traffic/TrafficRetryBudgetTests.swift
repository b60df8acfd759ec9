import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

@Suite("Retry budget: retries bounded by recent first attempts, per host")
struct TrafficRetryBudgetTests {
    /// A session over `transport` whose policy allows `maxAttempts` with `budget`; the retry
    /// link's waits are recorded and return at once.
    private static func session(
        _ transport: any Transport, budget: RetryBudget, maxAttempts: Int = 3, waits: WaitRecorder = WaitRecorder()
    ) -> Session {
        var policy = RetryPolicy(maxAttempts: maxAttempts)
        policy.budget = budget
        return Session(transport: transport, retryPolicy: policy).timed(by: waits)
    }

    @Test("A spent budget ends the call at once with its last response, and the error says why")
    func refusedRetryFailsAtOnce() async throws {
        let transport = ScriptedTransport([.success(status: 503, body: "busy")])
        let budget = RetryBudget(ratio: 0.5, minimumPerSecond: 0, clock: ManualClock())
        let waits = WaitRecorder()
        let session = Self.session(transport, budget: budget, waits: waits)

        let error = try #require(await TextRequest().result(session: session).errorValue)
        #expect(error.statusCode == 503)
        #expect(error.body == Data("busy".utf8))
        #expect(error.context.attempts == 1)
        #expect(error.context.retryRefusal == .budgetExhausted)
        #expect(error.description.hasSuffix("(4 body bytes); not retried: the host's retry budget is spent"))
        #expect(waits.recorded.isEmpty, "no wait before a refused retry")
        #expect(transport.count == 1)

        // a second first attempt brings the balance to one retry
        let second = try #require(await TextRequest().result(session: session).errorValue)
        #expect(second.context.attempts == 2)
        #expect(second.context.retryRefusal == .budgetExhausted)
        #expect(transport.count == 3)
    }

    @Test("A refused retry of a transport failure keeps the transport's error, with the refusal")
    func refusedTransportFailure() async throws {
        let transport = ScriptedTransport([.failure(URLError(.networkConnectionLost))])
        let budget = RetryBudget(ratio: 0, minimumPerSecond: 0, clock: ManualClock())
        let error = try #require(
            await TextRequest().result(session: Self.session(transport, budget: budget)).errorValue)
        guard case .transportFailed(let underlying as URLError, let context) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(underlying.code == .networkConnectionLost)
        #expect(context.retryRefusal == .budgetExhausted)
        #expect(transport.count == 1)
    }

    @Test("The floor allows retries without traffic, and the budget refills once the window has passed")
    func floorAndRefill() async throws {
        let transport = ScriptedTransport([.success(status: 503)])
        let clock = ManualClock()
        // a reserve of 0.1 × 10 = 1 retry per 10 seconds, nothing from first attempts
        let budget = RetryBudget(ratio: 0, minimumPerSecond: 0.1, window: 10, clock: clock)
        let session = Self.session(transport, budget: budget, maxAttempts: 2)

        #expect(await TextRequest().result(session: session).errorValue?.context.attempts == 2)
        let refused = try #require(await TextRequest().result(session: session).errorValue)
        #expect(refused.context.retryRefusal == .budgetExhausted)
        clock.advance(by: .seconds(9))
        #expect(await TextRequest().result(session: session).errorValue?.context.retryRefusal == .budgetExhausted)
        clock.advance(by: .seconds(2))
        let refilled = try #require(await TextRequest().result(session: session).errorValue)
        #expect(refilled.context.attempts == 2)
        #expect(refilled.context.retryRefusal == nil)
    }

    @Test("Each host has its own budget")
    func perHost() async throws {
        let transport = ScriptedTransport([.success(status: 503)])
        let budget = RetryBudget(ratio: 0, minimumPerSecond: 0.1, window: 10, clock: ManualClock())
        let session = Self.session(transport, budget: budget, maxAttempts: 2)
        #expect(await TextRequest().result(session: session).errorValue?.context.attempts == 2)
        #expect(await TextRequest().result(session: session).errorValue?.context.retryRefusal == .budgetExhausted)
        let other = try #require(await TextRequest(base: otherBase).result(session: session).errorValue)
        #expect(other.context.attempts == 2)
        #expect(other.context.retryRefusal == nil)
    }

    @Test("Hosts with nothing left in the window are forgotten: the ledgers kept stay bounded")
    func ledgersAreBounded() {
        let clock = ManualClock()
        let budget = RetryBudget(ratio: 0, minimumPerSecond: 0.1, window: 10, clock: clock)
        var most = 0
        for index in 0..<(RetryBudget.hostsBeforeSweep * 5) {
            budget.deposit("host\(index).example.test")
            clock.advance(by: .seconds(1))
            most = max(most, budget.hostCount)
        }
        #expect(most <= RetryBudget.hostsBeforeSweep + 1, "up to \(most) ledgers kept")
    }

    @Test("A sweep keeps the ledgers still in their window")
    func sweepKeepsCurrentLedgers() {
        let budget = RetryBudget(ratio: 0, minimumPerSecond: 0.1, window: 10, clock: ManualClock())
        budget.deposit("kept.example.test")
        #expect(budget.withdraw("kept.example.test"), "the floor allows one retry")
        for index in 0..<(RetryBudget.hostsBeforeSweep * 3) { budget.deposit("host\(index).example.test") }
        #expect(budget.hostCount == RetryBudget.hostsBeforeSweep * 3 + 1)
        #expect(!budget.withdraw("kept.example.test"), "the spent ledger was swept out and started again")
    }

    @Test("Calls the policy does not retry take nothing from the budget and are never refused")
    func notRetriedTakesNothing() async throws {
        let transport = ScriptedTransport([.success(status: 503)])
        let budget = RetryBudget(ratio: 0, minimumPerSecond: 0.1, window: 10, clock: ManualClock())
        let session = Self.session(transport, budget: budget, maxAttempts: 2)
        let post = try #require(await TextRequest(method: .post).result(session: session).errorValue)
        #expect(post.context.attempts == 1)
        #expect(post.context.retryRefusal == nil)
        #expect(budget.available("api.example.test") == 1)
        #expect(await TextRequest().result(session: session).errorValue?.context.attempts == 2)
    }

    @Test("During an outage, 100 callers with 3 attempts send at most 100 × (1 + ratio) + floor")
    func outageIsBounded() async throws {
        let transport = ScriptedTransport([.success(status: 503)])
        let budget = RetryBudget(ratio: 0.2, minimumPerSecond: 1, window: 10, clock: ManualClock())
        let session = Self.session(transport, budget: budget)
        let errors = await withTaskGroup(of: RequestError?.self) { group in
            for _ in 0..<100 { group.addTask { await TextRequest().result(session: session).errorValue } }
            return await group.reduce(into: [RequestError?]()) { $0.append($1) }
        }
        #expect(errors.allSatisfy { $0?.statusCode == 503 })
        #expect(transport.count <= 100 + 20 + 10, "\(transport.count) attempts")
        #expect(transport.count >= 100 + 10, "the floor's retries were made")
        #expect(errors.contains { $0?.context.retryRefusal == .budgetExhausted })
    }

    @Test(
        "Budget settings that cannot be followed fail the call with invalidRetryPolicy naming them",
        arguments: [
            (RetryBudget(ratio: -0.1), "budget.ratio -0.1"),
            (RetryBudget(ratio: 1001), "budget.ratio 1001.0"),
            (RetryBudget(ratio: .nan), "budget.ratio nan"),
            (RetryBudget(minimumPerSecond: -1), "budget.minimumPerSecond -1.0"),
            (RetryBudget(minimumPerSecond: .infinity), "budget.minimumPerSecond inf"),
            (RetryBudget(window: 0), "budget.window 0.0"),
            (RetryBudget(window: .nan), "budget.window nan"),
        ])
    func invalidSettings(budget: RetryBudget, named: String) async throws {
        let transport = ScriptedTransport([.success(status: 200)])
        let error = try #require(
            await TextRequest().result(session: Self.session(transport, budget: budget)).errorValue)
        guard case .buildFailed(.invalidRetryPolicy(let reason), _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(reason.hasPrefix(named))
        #expect(transport.count == 0)
    }
}
