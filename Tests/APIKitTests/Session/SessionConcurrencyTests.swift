import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

/// Counts how many times each of `count` requests completed, wakes a waiter when all have
/// completed at least once, and tells when none of their completions can be called any more.
final class CompletionTally: Sendable {
    private let counts: Locked<[Int]>
    private let done = CompletionProbe<Bool>()
    private let handlers = ReleaseProbe()

    init(count: Int) {
        counts = Locked(Array(repeating: 0, count: count))
    }

    func record(_ index: Int) {
        let all = counts.withLock { counts in
            counts[index] += 1
            return counts[index] == 1 && !counts.contains(0)
        }
        if all { done.record(true) }
    }

    /// The completion of request `index`: runs `body`, then counts the call.
    func completion<Value>(
        for index: Int, _ body: @escaping @Sendable (Value) -> Void
    ) -> @Sendable (Value) -> Void {
        handlers.watch { [self] value in
            body(value)
            record(index)
        }
    }

    /// Waits until every ``completion(for:_:)`` handed out has been released (or the timeout
    /// passed): from then on none can be called, and ``snapshot`` is final.
    func released(timeout: TimeInterval = 120) async -> Bool {
        await handlers.all(timeout: timeout)
    }

    /// Waits until every request completed (or the timeout passed).
    func waitForAll(timeout: TimeInterval = 120) async -> Bool {
        await done.first(timeout: timeout) ?? false
    }

    var snapshot: [Int] { counts.withLock { $0 } }
}

@Suite("Session: exactly once under concurrency and cancellation")
struct SessionConcurrencyTests {
    /// A stub that answers after 0–3 ms, sometimes with an error status or a transport failure.
    static let jitteryTransport = StubTransport { request in
        let delay = Double.random(in: 0...0.003)
        switch Int.random(in: 0..<10) {
        case 0: return .failure(URLError(.networkConnectionLost), delay: delay)
        case 1: return .success(status: 500, body: "err", delay: delay)
        default: return .success(body: "ok", delay: delay)
        }
    }

    static func sessions() -> [Session] {
        let log = EventLog()
        return [
            Session(transport: jitteryTransport),
            Session(transport: jitteryTransport, interceptors: [RecordingInterceptor(name: "A", log: log)]),
            Session(
                transport: jitteryTransport,
                completionQueue: DispatchQueue(label: "apikit.tests.stress", attributes: .concurrent)),
        ]
    }

    @Test("1,000 concurrent completion-API requests with random cancels: each completes exactly once")
    func completionAPI() async throws {
        let count = 1_000
        let tally = CompletionTally(count: count)
        let outcomes = Locked<[RequestError.Stage?]>(Array(repeating: nil, count: count))
        let sessions = Self.sessions()
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let session = sessions[index % sessions.count]
            let handle = ProbeRequest(base: stubBase).perform(
                using: session,
                completion: tally.completion(for: index) { result in
                    outcomes.withLock { $0[index] = result.errorValue?.stage }
                })
            switch Int.random(in: 0..<4) {
            case 0: handle.cancel()
            case 1:
                DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...3_000))) {
                    handle.cancel()
                }
            default: break
            }
        }

        #expect(await tally.waitForAll(), "some completions never came")
        #expect(await tally.released(), "some completions are still held")
        let counts = tally.snapshot
        #expect(
            counts.allSatisfy { $0 == 1 },
            "completions per request: \(Dictionary(grouping: counts, by: { $0 }).mapValues(\.count))")
        let stages = outcomes.withLock { $0 }
        #expect(stages.contains(.cancelled))
        #expect(stages.contains(nil), "no request succeeded")
    }

    @Test("1,000 concurrent async requests with random Task cancellation: each returns exactly once")
    func asyncAPI() async throws {
        let count = 1_000
        let sessions = Self.sessions()
        let stages = await withTaskGroup(of: RequestError.Stage?.self) { group in
            var tasks: [Task<Result<String, RequestError>, Never>] = []
            for index in 0..<count {
                let session = sessions[index % sessions.count]
                let task = Task {
                    await ProbeRequest(base: stubBase).result(session: session)
                }
                tasks.append(task)
                if Int.random(in: 0..<3) == 0 {
                    let delay = UInt64.random(in: 0...3_000_000)
                    group.addTask {
                        try? await Task.sleep(nanoseconds: delay)
                        task.cancel()
                        return nil
                    }
                }
            }
            var stages: [RequestError.Stage?] = []
            for task in tasks {
                stages.append(await task.value.errorValue?.stage)
            }
            return stages
        }
        #expect(stages.count == count)
        #expect(stages.contains(nil), "no request succeeded")
    }
}
