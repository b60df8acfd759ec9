import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

/// A transport that answers each request with the next of `script` (the last one repeats), and
/// counts and keeps what it was sent.
struct ScriptedTransport: Transport {
    let script: [StubResponse]
    let sent = Locked<[URLRequest]>([])

    init(_ script: [StubResponse]) {
        self.script = script
    }

    var count: Int { sent.withLock { $0.count } }
    var sentRequests: [URLRequest] { sent.withLock { $0 } }

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let index = sent.withLock { sent in
            sent.append(request)
            return sent.count - 1
        }
        let answer = script[min(index, script.count - 1)]
        return StubTransport { _ in answer }.send(request, progress: progress, completion: completion)
    }
}

/// A session's time for retry tests: records the length of every wait and returns at once; or,
/// with `blockUntilCancelled`, signals `waiting` and sleeps until the task is cancelled. Timers
/// (a resource timeout, a stub's delay) run in real time.
///
/// ```swift
/// let waits = WaitRecorder()
/// let session = Session(transport: stub, retryPolicy: waits.policy()).timed(by: waits).timed(by: waits)
/// ```
final class WaitRecorder: TimeSource, Sendable {
    let delays = Locked<[TimeInterval]>([])
    let waiting = CompletionProbe<Int>()
    let blockUntilCancelled: Bool

    init(blockUntilCancelled: Bool = false) {
        self.blockUntilCancelled = blockUntilCancelled
    }

    var recorded: [TimeInterval] { delays.withLock { $0 } }

    /// A policy with a backoff of 0.25 s doubling without jitter, so that its waits are exact.
    func policy(_ base: RetryPolicy = RetryPolicy(backoff: .init(baseDelay: 0.25, multiplier: 2, jitter: false)))
        -> RetryPolicy
    {
        base
    }

    var now: Date { Date() }

    var uptime: TimeInterval { SystemTime().uptime }

    func sleep(for seconds: TimeInterval) async throws {
        let count = delays.withLock { delays in
            delays.append(seconds)
            return delays.count
        }
        if blockUntilCancelled {
            waiting.record(count)
            try await Task.sleep(nanoseconds: 60_000_000_000)
        }
    }

    func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) -> any ScheduledAction {
        SystemTime().schedule(after: seconds, action)
    }
}

/// A plain text request; `retryPolicy` and `errorBodyDecoder` as given.
struct TextRequest: Request, RequestConfiguration {
    var base = stubBase
    var path = "text"
    var method: HTTPMethod = .get
    var retryPolicy: RetryPolicy? = nil
    var errorBodyDecoder: ErrorBodyDecoder? = nil
    /// Counts the builds: `intercept(urlRequest:)` runs once per attempt.
    var builds: Locked<Int>? = nil

    var configuration: Self { self }
    var parser: StringParser { StringParser() }

    func intercept(urlRequest: URLRequest) throws -> URLRequest {
        builds?.withLock { $0 += 1 }
        return urlRequest
    }
}
