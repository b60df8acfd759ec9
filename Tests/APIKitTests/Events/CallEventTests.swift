import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

/// The events of one call, in order, over `StubTransport` with time driven by hand: every
/// scenario's exact sequence, and the summary each call ends with.
@Suite("Call events: the stages of a call, in order, and its summary")
struct CallEventTests {
    /// A session over `transport` whose time is `time`, observed by `log`.
    private static func session(
        _ transport: any Transport, time: any TimeSource, log: CallEventLog, retryPolicy: RetryPolicy = .never,
        interceptors: [any Interceptor] = [], credentialStore: CredentialStore? = nil
    ) -> Session {
        Session(
            transport: transport, interceptors: interceptors, retryPolicy: retryPolicy,
            credentialStore: credentialStore, onCallEvent: log.observer
        ).timed(by: time)
    }

    /// A policy with a backoff of 0.25 s doubling without jitter.
    private static let policy = RetryPolicy(backoff: .init(baseDelay: 0.25, multiplier: 2, jitter: false))

    /// A link that passes every request on.
    private struct PassLink: Interceptor {
        func intercept(
            _ urlRequest: URLRequest, context: RequestContext,
            next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
        ) async throws -> CallResponse {
            try await next(urlRequest)
        }
    }

    /// What the observer of a test's session holds; the test watches it go.
    private final class Observed: Sendable {}

    @Test(
        "An error outlives its call without keeping the session's observer, or its recorder", arguments: [false, true])
    func errorKeepsNoObserver(withLink: Bool) async throws {
        weak var observed: Observed?
        var kept: RequestError?
        do {
            let held = Observed()
            observed = held
            let session = Session(
                transport: StubTransport { _ in .success(status: 500, body: "no") },
                interceptors: withLink ? [PassLink()] : []
            ) { _ in withExtendedLifetime(held) {} }
            do {
                _ = try await TextRequest().response(using: session)
            } catch {
                kept = error
            }
        }
        #expect(kept?.statusCode == 500)
        #expect(observed == nil, "the error keeps the session's observer")
    }

    @Test("A call that succeeds: start, attempt, request, head, body, end, with its summary")
    func success() async throws {
        let time = ManualTime()
        let log = CallEventLog()
        let transport = StubTransport(time: time) { _ in .success(body: "ok", delay: 0.5) }
        let session = Self.session(transport, time: time, log: log)
        let call = Task { try await TextRequest().response(using: session) }
        #expect(await time.nextWait() == 0.5)
        time.advance(by: 0.5)
        #expect(try await call.value == "ok")
        #expect(await log.waitForEnds())
        #expect(
            log.names == [
                "callStarted", "attemptStarted(1)", "requestSent", "responseHead(200)", "bodyEnded", "finished",
            ])
        #expect(
            log.metrics()
                == CallMetrics(
                    attempts: 1, timeToResponseHead: .seconds(0.5), duration: .seconds(0.5), bytesSent: 0,
                    bytesReceived: 2))
        let events = log.all
        #expect(events.map(\.time) == [.zero, .zero, .zero, .seconds(0.5), .seconds(0.5), .seconds(0.5)])
        #expect(Set(events.map(\.callID)).count == 1)
        guard case .responseHead(_, let timeToFirstByte) = events[3].stage else {
            Issue.record("not a head: \(events[3].stage)")
            return
        }
        #expect(timeToFirstByte == .seconds(0.5))
        #expect(events.last?.context.url?.lastPathComponent == "text")
        #expect(events.last?.context.attempts == 1)
    }

    @Test("A 503 retried: the first attempt's head, the retry with its reason and delay, the second attempt")
    func retryAfter503() async throws {
        let time = ManualTime()
        let log = CallEventLog()
        let transport = ScriptedTransport([.success(status: 503, body: "busy"), .success(body: "ok")])
        let session = Self.session(transport, time: time, log: log, retryPolicy: Self.policy)
        let call = Task { try await TextRequest().response(using: session) }
        #expect(await time.nextWait() == 0.25)
        time.advance(by: 0.25)
        #expect(try await call.value == "ok")
        #expect(await log.waitForEnds())
        #expect(
            log.names == [
                "callStarted", "attemptStarted(1)", "requestSent", "responseHead(503)", "retryScheduled(503)",
                "attemptStarted(2)", "requestSent", "responseHead(200)", "bodyEnded", "finished",
            ])
        let retry = log.all.compactMap { event -> Duration? in
            if case .retryScheduled(let delay, _) = event.stage { delay } else { nil }
        }
        #expect(retry == [.seconds(0.25)])
        #expect(log.all[5].context.attempts == 2, "the events of the second attempt name it")
        let metrics = try #require(log.metrics())
        #expect(metrics.attempts == 2)
        #expect(metrics.duration == .seconds(0.25))
        #expect(metrics.timeToResponseHead == .seconds(0.25))
    }

    @Test("A Retry-After is the reason of the retry, with its seconds")
    func retryAfterHeader() async throws {
        let time = ManualTime()
        let log = CallEventLog()
        let transport = ScriptedTransport([
            .success(status: 503, headers: ["Retry-After": "2"], body: ""), .success(body: "ok"),
        ])
        let session = Self.session(transport, time: time, log: log, retryPolicy: Self.policy)
        let call = Task { try await TextRequest().response(using: session) }
        #expect(await time.nextWait() == 2)
        time.advance(by: 2)
        #expect(try await call.value == "ok")
        #expect(await log.waitForEnds())
        #expect(log.names.contains("retryScheduled(503, Retry-After)"))
        let reasons = log.all.compactMap { event -> (Duration, TimeInterval)? in
            if case .retryScheduled(let delay, .retryAfter(_, let seconds)) = event.stage {
                (delay, seconds)
            } else {
                nil
            }
        }
        #expect(reasons.map(\.0) == [.seconds(2)])
        #expect(reasons.map(\.1) == [2])
    }

    @Test(
        "A Retry-After too long for a Duration, under a policy with no cap of its own, is waited as 10⁹ s, without a crash"
    )
    func hugeRetryAfter() async throws {
        let time = ManualTime()
        let log = CallEventLog()
        let transport = ScriptedTransport([
            .success(status: 503, headers: ["Retry-After": "1" + String(repeating: "0", count: 24)], body: ""),
            .success(body: "ok"),
        ])
        var policy = Self.policy
        policy.maxRetryAfter = .greatestFiniteMagnitude
        let session = Self.session(transport, time: time, log: log, retryPolicy: policy)
        let call = Task { try await TextRequest().response(using: session) }
        #expect(await time.nextWait() == 1e9)
        time.advance(by: 1e9)
        #expect(try await call.value == "ok")
        #expect(await log.waitForEnds())
        let retry = log.all.compactMap { event -> Duration? in
            if case .retryScheduled(let delay, _) = event.stage { delay } else { nil }
        }
        #expect(retry == [.seconds(1_000_000_000)])
    }

    @Test("A transport failure retried names the error as the reason")
    func retryAfterError() async throws {
        let log = CallEventLog()
        let transport = ScriptedTransport([.failure(URLError(.networkConnectionLost)), .success(body: "ok")])
        let session = Self.session(transport, time: WaitRecorder(), log: log, retryPolicy: Self.policy)
        #expect(try await TextRequest().response(using: session) == "ok")
        #expect(await log.waitForEnds())
        #expect(
            log.names == [
                "callStarted", "attemptStarted(1)", "requestSent", "retryScheduled(error)", "attemptStarted(2)",
                "requestSent", "responseHead(200)", "bodyEnded", "finished",
            ])
    }

    @Test("A retry the budget refuses: the refusal, then the failure with the last response")
    func budgetRefusal() async throws {
        let log = CallEventLog()
        let budget = RetryBudget(ratio: 0, minimumPerSecond: 0, clock: ManualClock())
        let transport = StubTransport { _ in .success(status: 503, body: "busy") }
        let session = Self.session(
            transport, time: WaitRecorder(), log: log,
            retryPolicy: RetryPolicy(backoff: .init(baseDelay: 0.25, jitter: false), budget: budget))
        await #expect(throws: RequestError.self) { try await TextRequest().response(using: session) }
        #expect(await log.waitForEnds())
        #expect(
            log.names == [
                "callStarted", "attemptStarted(1)", "requestSent", "responseHead(503)", "retryRefused", "bodyEnded",
                "failed(responseValidation)",
            ])
    }

    @Test("A 401: the credential is refreshed and the request sent once more")
    func credentialRefresh() async throws {
        let log = CallEventLog()
        let transport = StubTransport { request in
            request.value(forHTTPHeaderField: "Authorization") == "Bearer token-1"
                ? .success(body: "ok") : .success(status: 401, body: "")
        }
        let session = Self.session(
            transport, time: WaitRecorder(), log: log,
            credentialStore: CredentialStore(CountingAuthenticator(), credential: "expired"))
        #expect(try await TextRequest().response(using: session) == "ok")
        #expect(await log.waitForEnds())
        #expect(
            log.names == [
                "callStarted", "attemptStarted(1)", "requestSent", "responseHead(401)", "credentialRefresh",
                "attemptStarted(2)", "requestSent", "responseHead(200)", "bodyEnded", "finished",
            ])
        #expect(log.metrics()?.attempts == 2)
    }

    @Test("A transport failure: no head, no body, the failure with its summary")
    func transportFailure() async throws {
        let log = CallEventLog()
        let transport = StubTransport { _ in .failure(URLError(.notConnectedToInternet)) }
        let session = Self.session(transport, time: WaitRecorder(), log: log)
        await #expect(throws: RequestError.self) { try await TextRequest().response(using: session) }
        #expect(await log.waitForEnds())
        #expect(log.names == ["callStarted", "attemptStarted(1)", "requestSent", "failed(transport)"])
        let metrics = try #require(log.metrics())
        #expect(metrics.attempts == 1)
        #expect(metrics.timeToResponseHead == nil)
        #expect(metrics.bytesReceived == 0)
    }

    @Test("A 503, then a retry the transport fails: the summary has no head time (no response was kept)")
    func headOfADroppedResponse() async throws {
        let log = CallEventLog()
        let answers = Locked(0)
        let transport = StubTransport { _ in
            let answer = answers.withLock { count in
                count += 1
                return count
            }
            return answer == 1 ? .success(status: 503) : .failure(URLError(.networkConnectionLost))
        }
        let session = Self.session(transport, time: WaitRecorder(), log: log, retryPolicy: RetryPolicy(maxAttempts: 2))
        await #expect(throws: RequestError.self) { try await TextRequest().response(using: session) }
        #expect(await log.waitForEnds())
        let metrics = try #require(log.metrics())
        #expect(metrics.attempts == 2)
        #expect(metrics.timeToResponseHead == nil)
    }

    @Test("A build error: the call starts and fails, nothing is sent")
    func buildFailure() async throws {
        let log = CallEventLog()
        var session = Self.session(StubTransport { _ in .success(body: "ok") }, time: WaitRecorder(), log: log)
        session.defaultHeaders = ["Bad Name": "x"]
        await #expect(throws: RequestError.self) { try await TextRequest().response(using: session) }
        #expect(await log.waitForEnds())
        #expect(log.names == ["callStarted", "failed(build)"])
        #expect(log.metrics()?.attempts == 0)
    }

    @Test("A rejected status: the head and the body, then the failure")
    func rejectedStatus() async throws {
        let log = CallEventLog()
        let session = Self.session(
            StubTransport { _ in .success(status: 404, body: "gone") }, time: WaitRecorder(), log: log)
        await #expect(throws: RequestError.self) { try await TextRequest().response(using: session) }
        #expect(await log.waitForEnds())
        #expect(
            log.names == [
                "callStarted", "attemptStarted(1)", "requestSent", "responseHead(404)", "bodyEnded",
                "failed(responseValidation)",
            ])
        #expect(log.metrics()?.bytesReceived == 4)
    }

    @Test("A body sent is counted in the summary")
    func bytesSent() async throws {
        let log = CallEventLog()
        let session = Self.session(StubTransport { _ in .success(body: "ok") }, time: WaitRecorder(), log: log)
        _ = try await SecretRequest().response(using: session)
        #expect(await log.waitForEnds())
        #expect(log.metrics()?.bytesSent == Int64(LogSecrets.body.utf8.count))
    }

    @Test("An interceptor of the user's reports a cache outcome; a hit sends nothing")
    func cacheOutcome() async throws {
        let log = CallEventLog()
        let session = Self.session(
            StubTransport { _ in .success(body: "ok") }, time: WaitRecorder(), log: log,
            interceptors: [MemoryCache()])
        #expect(try await TextRequest().response(using: session) == "ok")
        #expect(try await TextRequest().response(using: session) == "ok")
        #expect(await log.waitForEnds(2))
        let ids = log.callIDs
        #expect(ids.count == 2)
        #expect(
            log.names(of: ids[0]) == [
                "callStarted", "attemptStarted(1)", "cacheOutcome(miss)", "requestSent", "responseHead(200)",
                "bodyEnded", "finished",
            ])
        #expect(
            log.names(of: ids[1]) == ["callStarted", "attemptStarted(1)", "cacheOutcome(hit)", "bodyEnded", "finished"])
        #expect(log.metrics(of: ids[1])?.attempts == 0)
    }

    @Test("A link that reports a stage only the pipeline reports gets a typed error")
    func reservedStage() async throws {
        struct Impostor: Interceptor {
            func intercept(
                _ urlRequest: URLRequest, context: RequestContext,
                next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
            ) async throws -> CallResponse {
                try context.report(.callStarted)
                return try await next(urlRequest)
            }
        }
        let log = CallEventLog()
        let session = Self.session(
            StubTransport { _ in .success(body: "ok") }, time: WaitRecorder(), log: log, interceptors: [Impostor()])
        let error = try #require(await TextRequest().result(session: session).errorValue)
        guard case .requestInterceptorFailed(let underlying, _) = error else {
            Issue.record("not an interceptor failure: \(error)")
            return
        }
        #expect(underlying is CallEvent.ReservedStage)
        #expect(log.names == ["callStarted", "attemptStarted(1)", "failed(requestInterceptor)"])
        #expect(throws: CallEvent.ReservedStage.self) { try RequestContext.stub.report(.finished(CallMetrics())) }
    }

    @Test("Without an observer, a call records nothing")
    func noObserver() {
        #expect(
            CallRecorder.make(for: Session(transport: StubTransport { _ in .success(body: "") }), context: .stub) == nil
        )
    }
}

extension RequestContext {
    /// A context of no call: reports go nowhere.
    static var stub: RequestContext {
        RequestContext(requestType: "Stub", method: .get, url: nil, declaredLocation: "/")
    }
}
