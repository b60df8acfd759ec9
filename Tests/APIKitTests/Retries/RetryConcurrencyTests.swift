import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

@Suite("Retries and refreshes: exactly once under concurrency and cancellation")
struct RetryConcurrencyTests {
    /// Answers after 0–3 ms: sometimes a lost connection, often 503, else 200; with `bearer`,
    /// 401 unless the request carries `Bearer token-1`.
    static func transport(bearer: Bool = false) -> StubTransport {
        StubTransport { request in
            let delay = Double.random(in: 0...0.003)
            if bearer, request.headerValue("Authorization") != "Bearer token-1", Int.random(in: 0..<2) == 0 {
                return .success(status: 401, delay: delay)
            }
            switch Int.random(in: 0..<10) {
            case 0: return .failure(URLError(.networkConnectionLost), delay: delay)
            case 1, 2, 3: return .success(status: 503, body: "busy", delay: delay)
            default: return .success(body: "ok", delay: delay)
            }
        }
    }

    struct QuickAuthenticator: Authenticator {
        func apply(_ credential: String, to urlRequest: inout URLRequest) throws {
            urlRequest.setValue("Bearer \(credential)", forHTTPHeaderField: "Authorization")
        }

        func refresh() async throws -> String {
            try? await Task.sleep(nanoseconds: UInt64.random(in: 0...2_000_000))
            if Int.random(in: 0..<4) == 0 { throw CountingAuthenticator.RefreshDenied() }
            return "token-1"
        }
    }

    static func sessions() -> [Session] {
        let policy = RetryPolicy(maxAttempts: 4)
        return [
            Session(transport: transport(), retryPolicy: policy),
            Session(
                transport: transport(), interceptors: [RecordingInterceptor(name: "A", log: EventLog())],
                retryPolicy: policy),
            Session(
                transport: transport(),
                completionQueue: DispatchQueue(label: "apikit.tests.retry-stress", attributes: .concurrent),
                retryPolicy: policy
            ),
            Session(
                transport: transport(bearer: true), retryPolicy: policy,
                credentialStore: CredentialStore(QuickAuthenticator(), credential: "old")),
        ]
    }

    static let policy = RetryPolicy(maxAttempts: 4)

    @Test("1,000 concurrent completion requests through retries, refreshes and cancels: each completes exactly once")
    func completionAPI() async throws {
        try await runCompletionAPI()
    }

    private func runCompletionAPI() async throws {
        let count = 1_000
        let tally = CompletionTally(count: count)
        let outcomes = Locked<[RequestError?]>(Array(repeating: nil, count: count))
        let succeeded = Locked(0)
        let cancelledInBackoff = Protected(0)
        let sessions = Self.sessions()
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let handle = Locked<RequestHandle?>(nil)
            var cancel: (@Sendable () -> Void)? = nil
            if index % 5 == 0 {
                cancel = { handle.withLock { $0 }?.cancel() }
            }
            let session = sessions[index % sessions.count]
                .timed(by: CancellingBackoffTime(cancel: cancel, cancelledInBackoff: cancelledInBackoff))
            let request = TextRequest(retryPolicy: Self.policy)
            let started = request.perform(
                using: session,
                completion: tally.completion(for: index) { result in
                    switch result {
                    case .success: succeeded.withLock { $0 += 1 }
                    case .failure(let error): outcomes.withLock { $0[index] = error }
                    }
                })
            handle.withLock { $0 = started }
            switch Int.random(in: 0..<6) {
            case 0: started.cancel()
            case 1:
                DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...5_000))) {
                    started.cancel()
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
        let errors = outcomes.withLock { $0 }.compactMap { $0 }
        #expect(succeeded.withLock { $0 } > 0, "no request succeeded")
        #expect(errors.contains { $0.stage == .cancelled })
        #expect(errors.contains { $0.context.attempts > 1 }, "no request failed after retries")
        #expect(cancelledInBackoff.withLock { $0 } > 0, "no cancellation during a backoff wait")
    }

    @Test("1,000 concurrent async requests through retries, refreshes and Task cancels: each returns exactly once")
    func asyncAPI() async throws {
        try await runAsyncAPI()
    }

    private func runAsyncAPI() async throws {
        let count = 1_000
        let sessions = Self.sessions()
        let cancelledInBackoff = Protected(0)
        let returned = Locked(Array(repeating: 0, count: count))
        let results = await withTaskGroup(of: Void.self) { group -> [Result<String, RequestError>] in
            var tasks: [Task<Result<String, RequestError>, Never>] = []
            for index in 0..<count {
                let box = Locked<Task<Result<String, RequestError>, Never>?>(nil)
                var cancel: (@Sendable () -> Void)? = nil
                if index % 5 == 0 {
                    cancel = { box.withLock { $0 }?.cancel() }
                }
                let session = sessions[index % sessions.count]
                    .timed(by: CancellingBackoffTime(cancel: cancel, cancelledInBackoff: cancelledInBackoff))
                let request = TextRequest(retryPolicy: Self.policy)
                let task = Task {
                    let result = await request.result(session: session)
                    returned.withLock { $0[index] += 1 }
                    return result
                }
                box.withLock { $0 = task }
                tasks.append(task)
                if Int.random(in: 0..<4) == 0 {
                    let delay = UInt64.random(in: 0...5_000_000)
                    group.addTask {
                        try? await Task.sleep(nanoseconds: delay)
                        task.cancel()
                    }
                }
            }
            var results: [Result<String, RequestError>] = []
            for task in tasks {
                results.append(await task.value)
            }
            return results
        }
        #expect(results.count == count)
        #expect(returned.withLock { $0 }.allSatisfy { $0 == 1 })
        #expect(results.contains { (try? $0.get()) == "ok" }, "no request succeeded")
        #expect(results.contains { $0.errorValue?.stage == .cancelled })
        #expect(cancelledInBackoff.withLock { $0 } > 0, "no cancellation during a backoff wait")
    }
}
