@_spi(Testing) import APIKit
import APIKitAsyncHTTPClient
import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import NIOPosix
import Testing

/// The issue's "exactly-once completion under 1,000 concurrent requests with cancellation and
/// retries", over this transport and real servers (the root package runs the same mix against
/// `StubTransport` in `RetryConcurrencyTests`).
@Suite(
    "1,000 concurrent requests through AsyncHTTPClientTransport: each completes exactly once",
    .enabled(if: HTTPBin.url != nil && FaultServer.url != nil, FaultServer.skipReason))
struct ExactlyOnceTests {
    /// Starts request `index` of the mix (30% 503 retried, 10% reset retried, 20% never
    /// answered, 40% ok), cancels it at once, a little later or not at all (one in seven is
    /// cancelled in a backoff wait; a request never answered is always cancelled in the end).
    static func start(
        _ index: Int,
        session: Session,
        probe: CompletionProbe<Result<Data, RequestError>>,
        cancelledInBackoff: Protected<Int>
    ) {
        let handle = Protected<RequestHandle?>(nil)
        var cancelInBackoff: (@Sendable () -> Void)?
        if index % 7 == 0 { cancelInBackoff = { handle.value?.cancel() } }
        var session = session
        session.retryPolicy = RetryPolicy(maxAttempts: 3)
        session.time = CancellingBackoffTime(cancel: cancelInBackoff, cancelledInBackoff: cancelledInBackoff)
        let kind = index % 10
        let started: RequestHandle
        switch kind {
        case 0, 1, 2: started = RawStatusRequest(code: 503).perform(using: session, completion: probe.handler)
        case 3:
            started = FaultRequest(path: "reset-before-status", idleTimeout: 30).perform(
                using: session, completion: probe.handler)
        case 4, 5:
            started = FaultRequest(path: "never", idleTimeout: 30).perform(using: session, completion: probe.handler)
        default: started = FaultRequest(path: "ok", idleTimeout: 30).perform(using: session, completion: probe.handler)
        }
        handle.withLock { $0 = started }
        let later: DispatchTime
        switch Int.random(in: 0..<6) {
        case 0:
            started.cancel()
            return
        case 1, 2: later = .now() + .microseconds(Int.random(in: 0...50_000))
        default:
            guard kind == 4 || kind == 5 else { return }
            later = .now() + .milliseconds(Int.random(in: 100...500))
        }
        DispatchQueue.global().asyncAfter(deadline: later) { started.cancel() }
    }

    @Test("ok, 503 retried, reset retried, never answered; cancelled at once, later, or in a backoff wait")
    func completionAPI() async throws {
        let count = 1_000
        let probes = (0..<count).map { _ in CompletionProbe<Result<Data, RequestError>>() }
        let cancelledInBackoff = Protected(0)
        // A client of its own, on event loops of its own: requests waiting for one of its pooled
        // connections, or for its event loops, would make the other tests' requests wait
        // behind them (and time out).
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let transport = AsyncHTTPClientTransport(configuration: TestTransport.configuration, eventLoopGroup: loops)
        let session = Session(transport: transport)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            Self.start(index, session: session, probe: probes[index], cancelledInBackoff: cancelledInBackoff)
        }

        var outcomes: [Result<Data, RequestError>] = []
        for (index, probe) in probes.enumerated() {
            let outcome = try #require(await probe.first(timeout: 120), "request \(index) never completed")
            outcomes.append(outcome)
        }
        // once nothing holds a completion, nothing can call it again: the counts are final
        for (index, probe) in probes.enumerated() {
            #expect(await probe.released(timeout: 60), "request \(index)'s completion is still held")
        }
        let counts = probes.map(\.count)
        #expect(
            counts.allSatisfy { $0 == 1 },
            "completions per request: \(Dictionary(grouping: counts, by: { $0 }).mapValues(\.count))")
        let errors = outcomes.compactMap(\.failure)
        #expect(outcomes.contains { (try? $0.get()) != nil }, "no request succeeded")
        #expect(errors.contains { $0.stage == .cancelled }, "no request was cancelled")
        #expect(
            errors.contains { $0.context.attempts > 1 && $0.stage != .cancelled }, "no request failed after retries")
        #expect(cancelledInBackoff.value > 0, "no cancellation during a backoff wait")
        let unexpected = errors.filter { error in
            switch error.stage {
            case .cancelled, .responseValidation: false
            case .transport: (error.underlyingError as? URLError)?.code != .networkConnectionLost
            default: true
            }
        }
        #expect(unexpected.isEmpty, "\(unexpected.prefix(5))")
        try await transport.shutdown()
        try await loops.shutdownGracefully()
    }
}

/// httpbin's `/status/N`, its (empty) body read as raw bytes.
struct RawStatusRequest: Request, RequestConfiguration {
    var code: Int
    var base = HTTPBin.baseURL
    var path: String { "status/\(code)" }
    var method: HTTPMethod { .get }
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
}
