import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

/// An authenticator whose refresh hands out `token-1`, `token-2`… (or fails), counting its
/// calls; each refresh can be held until a signal.
struct CountingAuthenticator: Authenticator {
    struct RefreshDenied: Error, Equatable {}

    let refreshes = Locked(0)
    let started = CompletionProbe<Int>()
    /// When set, each refresh waits for it (at most 30 s) before answering.
    var gate: CompletionProbe<Bool>? = nil
    var fails = false
    /// When set, every refresh returns this token instead of the next one.
    var fixedToken: String? = nil
    var applyFails = false

    func apply(_ credential: String, to urlRequest: inout URLRequest) throws {
        if applyFails { throw ProbeFailure(stage: "apply") }
        urlRequest.setValue("Bearer \(credential)", forHTTPHeaderField: "Authorization")
    }

    func refresh() async throws -> String {
        let number = refreshes.withLock { count in
            count += 1
            return count
        }
        started.record(number)
        if let gate { _ = await gate.first() }
        if fails { throw RefreshDenied() }
        return fixedToken ?? "token-\(number)"
    }

    var count: Int { refreshes.withLock { $0 } }
}

/// A server that accepts only `Bearer <valid>` and answers with the token; records every
/// request and signals `rejected` once it has answered `expectedRejections` 401s.
/// Holds every request until `count` have arrived, then lets them all through at once, so
/// that "50 concurrent requests" really are 50 on the wire before the first answer. Without it,
/// on a loaded machine the first 401s came back while most requests had not started; those then
/// (rightly) waited for the refresh instead of being sent, and a gate that waited for 50
/// rejections never opened.
final class HeldTransport: Transport {
    let inner: any Transport
    let count: Int
    private let held = Locked<(arrived: Int, waiting: [@Sendable () -> Void])>((0, []))

    init(_ inner: any Transport, until count: Int) {
        self.inner = inner
        self.count = count
    }

    private struct NoTask: TransportTask {
        func cancel() {}
    }

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let inner = inner
        let release: @Sendable () -> Void = { _ = inner.send(request, progress: progress, completion: completion) }
        let ready = held.withLock { held -> [@Sendable () -> Void] in
            held.arrived += 1
            guard held.arrived >= count else {
                held.waiting.append(release)
                return []
            }
            defer { held.waiting = [] }
            return held.waiting + [release]
        }
        ready.forEach { $0() }
        return NoTask()
    }
}

/// Holds each request `holds` picks, without holding a thread, until the test calls
/// ``open()``, and then sends it through `inner`: a request kept on the wire for as long as the
/// test needs. Other requests, and those sent once it is open, go through at once.
final class GatedTransport: Transport {
    let inner: any Transport
    let holds: @Sendable (URLRequest) -> Bool
    /// Records each request held, once it is held.
    let held = CompletionProbe<URLRequest>()
    private let gate = Locked<(isOpen: Bool, waiting: [@Sendable () -> Void])>((false, []))

    init(_ inner: any Transport, holding holds: @escaping @Sendable (URLRequest) -> Bool) {
        self.inner = inner
        self.holds = holds
    }

    /// A held request is not cancelled (the tests that hold one do not cancel it).
    private struct HeldTask: TransportTask {
        func cancel() {}
    }

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        guard holds(request) else { return inner.send(request, progress: progress, completion: completion) }
        let inner = inner
        let isHeld = gate.withLock { gate in
            if !gate.isOpen {
                gate.waiting.append { _ = inner.send(request, progress: progress, completion: completion) }
            }
            return !gate.isOpen
        }
        guard isHeld else { return inner.send(request, progress: progress, completion: completion) }
        held.record(request)
        return HeldTask()
    }

    /// Sends the requests held so far, and lets every later one through.
    func open() {
        let waiting = gate.withLock { gate in
            gate.isOpen = true
            defer { gate.waiting = [] }
            return gate.waiting
        }
        waiting.forEach { $0() }
    }
}

final class BearerServer: Sendable {
    let valid: String
    let expectedRejections: Int
    let rejected = CompletionProbe<Bool>()
    private let counts = Locked((sent: 0, rejections: 0))
    let sent = Locked<[URLRequest]>([])

    init(valid: String = "token-1", expectedRejections: Int = 1) {
        self.valid = valid
        self.expectedRejections = expectedRejections
    }

    var transport: StubTransport {
        StubTransport { [self] request in
            sent.withLock { $0.append(request) }
            guard request.headerValue("Authorization") == "Bearer \(valid)" else {
                let rejections = counts.withLock { counts in
                    counts.rejections += 1
                    return counts.rejections
                }
                if rejections == expectedRejections { rejected.record(true) }
                return .success(status: 401, body: "no")
            }
            return .success(body: valid)
        }
    }

    var requests: [URLRequest] { sent.withLock { $0 } }
    var rejections: Int { counts.withLock { $0.rejections } }
}

@Suite("Session credential store: one refresh in flight, replay once")
struct CredentialStoreTests {
    @Test("50 concurrent 401s: exactly one refresh, all 50 replayed with the new token (completion API)")
    func fiftyConcurrentCompletion() async throws {
        let server = BearerServer(expectedRejections: 50)
        let authenticator = CountingAuthenticator(gate: server.rejected)
        let session = Session(
            transport: HeldTransport(server.transport, until: 50),
            credentialStore: CredentialStore(authenticator, credential: "expired")
        )
        let tally = CompletionTally(count: 50)
        let results = Locked<[Result<String, RequestError>?]>(Array(repeating: nil, count: 50))
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            TextRequest().perform(
                using: session,
                completion: tally.completion(for: index) { result in
                    results.withLock { $0[index] = result }
                })
        }
        #expect(await tally.waitForAll())
        #expect(await tally.released(), "some completions are still held")
        #expect(tally.snapshot.allSatisfy { $0 == 1 })
        #expect(authenticator.count == 1)
        #expect(server.rejections == 50)
        #expect(server.requests.count == 100)
        for result in results.withLock({ $0 }) {
            #expect(try result?.get() == "token-1")
        }
        for request in server.requests.suffix(50) {
            #expect(request.headerValue("Authorization") == "Bearer token-1")
        }
    }

    @Test("50 concurrent 401s with the async API, starting without a credential: one refresh, 50 successes")
    func fiftyConcurrentAsync() async throws {
        let server = BearerServer(expectedRejections: 50)
        let authenticator = CountingAuthenticator(gate: server.rejected)
        let session = Session(
            transport: HeldTransport(server.transport, until: 50), credentialStore: CredentialStore(authenticator))
        let values = await Self.fiftyResults(through: session)
        #expect(values.count == 50)
        #expect(values.allSatisfy { (try? $0.get()) == "token-1" })
        #expect(authenticator.count == 1)
        #expect(server.requests.prefix(50).allSatisfy { $0.headerValue("Authorization") == nil })
    }

    @Test("after a failed refresh, a request sent later may refresh again")
    func refreshAgainAfterFailure() async throws {
        let server = BearerServer(expectedRejections: 2)
        let authenticator = CountingAuthenticator(fails: true)
        let session = Session(
            transport: server.transport, credentialStore: CredentialStore(authenticator, credential: "expired"))
        let first = await TextRequest().result(session: session)
        let second = await TextRequest().result(session: session)
        for value in [first, second] {
            guard case .failure(.requestInterceptorFailed(_ as CredentialRefreshFailed, _)) = value else {
                Issue.record("unexpected \(value)")
                continue
            }
        }
        #expect(authenticator.count == 2, "the second request, sent after the failure, tries again")
    }

    @Test("a failed refresh fails all 50 waiters with that error, after one refresh call")
    func failedRefreshFailsAll() async throws {
        let server = BearerServer(expectedRejections: 50)
        let authenticator = CountingAuthenticator(gate: server.rejected, fails: true)
        let session = Session(
            transport: HeldTransport(server.transport, until: 50),
            credentialStore: CredentialStore(authenticator, credential: "expired")
        )
        let values = await Self.fiftyResults(through: session)
        #expect(values.count == 50)
        #expect(authenticator.count == 1)
        #expect(server.requests.count == 50, "nothing is replayed")
        for value in values {
            guard case .failure(.requestInterceptorFailed(let error as CredentialRefreshFailed, _)) = value else {
                Issue.record("unexpected \(value)")
                continue
            }
            #expect(error.underlyingError is CountingAuthenticator.RefreshDenied)
            #expect(String(describing: error).contains("refreshing the credential failed"))
        }
    }

    @Test("a 401 after the replay is reported as unacceptableStatusCode(401): one refresh, no loop")
    func noLoop() async throws {
        let server = BearerServer()
        let authenticator = CountingAuthenticator(fixedToken: "still-wrong")
        let session = Session(
            transport: server.transport, credentialStore: CredentialStore(authenticator, credential: "expired"))
        let error = try #require(await session.performProbed(TextRequest()).result?.errorValue)
        guard case .unacceptableStatusCode(401, let body, _, let context) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(body == Data("no".utf8))
        #expect(context.attempts == 2)
        #expect(authenticator.count == 1)
        #expect(server.requests.count == 2)
    }

    @Test("a valid credential is applied and nothing is refreshed; other statuses are not refreshes")
    func validCredential() async throws {
        let server = BearerServer()
        let authenticator = CountingAuthenticator()
        let session = Session(
            transport: server.transport, credentialStore: CredentialStore(authenticator, credential: "token-1"))
        #expect(try await session.performProbed(TextRequest()).result?.get() == "token-1")
        #expect(authenticator.count == 0)

        let forbidden = Session(
            transport: StubTransport { _ in .success(status: 403) }, credentialStore: CredentialStore(authenticator))
        #expect(await forbidden.performProbed(TextRequest()).result?.errorValue?.statusCode == 403)
        #expect(authenticator.count == 0)
    }

    @Test("apply throwing fails the request as requestInterceptorFailed before anything is sent")
    func applyFails() async throws {
        let server = BearerServer()
        let session = Session(
            transport: server.transport,
            credentialStore: CredentialStore(CountingAuthenticator(applyFails: true), credential: "token-1")
        )
        let error = try #require(await session.performProbed(TextRequest()).result?.errorValue)
        guard case .requestInterceptorFailed(let underlying as ProbeFailure, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(underlying.stage == "apply")
        #expect(server.requests.isEmpty)
    }

    @Test(
        "cancelling a request waiting for the refresh: cancelled once, not replayed; the refresh goes on for the others"
    )
    func cancelWhileWaitingForRefresh() async throws {
        let server = BearerServer()
        let release = CompletionProbe<Bool>()
        let authenticator = CountingAuthenticator(gate: release)
        let session = Session(
            transport: server.transport, credentialStore: CredentialStore(authenticator, credential: "expired"))
        let cancelled = CompletionProbe<Result<String, RequestError>>()
        let handle = TextRequest(path: "first").perform(using: session, completion: cancelled.handler)
        #expect(await authenticator.started.first() == 1, "the refresh never started")
        // Started while the refresh runs: waits for it instead of sending the stale token.
        let waiting = CompletionProbe<Result<String, RequestError>>()
        TextRequest(path: "second").perform(using: session, completion: waiting.handler)
        handle.cancel()
        #expect(try #require(await cancelled.first()).errorValue?.stage == .cancelled)
        release.record(true)
        #expect(try #require(await waiting.first()).get() == "token-1")
        // a replay of the cancelled request would hold its completion until the server answered it
        #expect(await cancelled.released(), "the cancelled request's completion is still held")
        #expect(await waiting.released(), "the second request's completion is still held")
        #expect(cancelled.count == 1)
        #expect(authenticator.count == 1)
        let paths = server.requests.map { $0.url?.lastPathComponent ?? "" }
        #expect(paths == ["first", "second"], "the cancelled request is not replayed, the second sent once")
        #expect(server.requests.last?.headerValue("Authorization") == "Bearer token-1")
    }

    @Test(
        "an awaiting task cancelled while it waits for the refresh throws cancelled without waiting for the refresh, which goes on for the others"
    )
    func asyncCancelWhileWaitingForRefresh() async throws {
        let server = BearerServer()
        let release = CompletionProbe<Bool>()
        let authenticator = CountingAuthenticator(gate: release)
        let credentials = CredentialStore(authenticator, credential: "expired")
        let session = Session(transport: server.transport, credentialStore: credentials)
        let store = try #require(credentials.storage as? TypedCredentialStore<CountingAuthenticator>)
        let call = Task { await TextRequest(path: "first").result(session: session) }
        #expect(await authenticator.started.first() == 1, "the refresh never started")
        #expect(await eventually { store.waitingForRefresh == 1 }, "the request never waited for the refresh")
        call.cancel()
        let ended = CompletionProbe<Result<String, RequestError>>()
        Task { ended.record(await call.value) }
        // the refresh is held until `release`: the call has to end without it (60 s only bounds a failure)
        let outcome = await ended.first(timeout: 60)
        #expect(store.waitingForRefresh == 0, "the cancelled request still waits for the refresh")
        #expect(await store.isRefreshing)
        release.record(true)
        #expect(outcome?.errorValue?.stage == .cancelled, "\(String(describing: outcome))")
        #expect(try await TextRequest(path: "second").result(session: session).get() == "token-1")
        #expect(authenticator.count == 1)
        let paths = server.requests.map { $0.url?.lastPathComponent ?? "" }
        #expect(paths == ["first", "second"], "the cancelled request is not replayed")
    }

    @Test(
        "a refresh that fails after every request waiting for it was cancelled is still recorded: a later request is sent and may refresh again"
    )
    func refreshFailsWithNobodyWaiting() async throws {
        let server = BearerServer()
        let release = CompletionProbe<Bool>()
        let authenticator = CountingAuthenticator(gate: release, fails: true)
        let credentials = CredentialStore(authenticator, credential: "expired")
        let session = Session(transport: server.transport, credentialStore: credentials)
        let store = try #require(credentials.storage as? TypedCredentialStore<CountingAuthenticator>)
        let call = Task { await TextRequest(path: "first").result(session: session) }
        #expect(await authenticator.started.first() == 1, "the refresh never started")
        call.cancel()
        #expect(await call.value.errorValue?.stage == .cancelled)
        release.record(true)
        // nobody waits for the refresh any more: it records its failure itself when it ends
        var refreshing = await store.isRefreshing
        for _ in 0..<12_000 where refreshing {  // 120 s only bounds a failure
            try await Task.sleep(nanoseconds: 10_000_000)
            refreshing = await store.isRefreshing
        }
        #expect(!refreshing, "the failed refresh was never recorded")
        let later = await TextRequest(path: "later").result(session: session)
        guard case .failure(.requestInterceptorFailed(let failure as CredentialRefreshFailed, _)) = later else {
            Issue.record("expected the later request's own refresh to fail, got \(later)")
            return
        }
        #expect(failure.underlyingError is CountingAuthenticator.RefreshDenied)
        #expect(authenticator.count == 2, "the later request started a refresh of its own")
        let paths = server.requests.map { $0.url?.lastPathComponent ?? "" }
        #expect(paths == ["first", "later"], "the later request was sent")
    }

    /// Refreshes by calling a token endpoint through the session that holds its store.
    struct SessionAuthenticator: Authenticator {
        let session: Locked<Session?>

        func apply(_ credential: String, to urlRequest: inout URLRequest) throws {
            urlRequest.setValue("Bearer \(credential)", forHTTPHeaderField: "Authorization")
        }

        func refresh() async throws -> String {
            let session = try #require(session.withLock { $0 })
            return try await TextRequest(path: "token").response(using: session)
        }
    }

    @Test(
        "a refresh that calls the token endpoint through the same session: its request passes the credential step as it is, no wait for itself"
    )
    func refreshThroughTheSession() async throws {
        let sent = Locked<[URLRequest]>([])
        let transport = StubTransport { request in
            sent.withLock { $0.append(request) }
            if request.url?.lastPathComponent == "token" {
                // the token endpoint rejects a stale credential, as many do: no refresh for it
                return request.headerValue("Authorization") == nil
                    ? .success(body: "fresh") : .success(status: 401, body: "stale")
            }
            return request.headerValue("Authorization") == "Bearer fresh"
                ? .success(body: "ok") : .success(status: 401, body: "no")
        }
        let holder = Locked<Session?>(nil)
        let session = Session(
            transport: transport,
            credentialStore: CredentialStore(SessionAuthenticator(session: holder), credential: "old"))
        holder.withLock { $0 = session }
        let call = Task { await TextRequest(path: "data").result(session: session) }
        let ended = CompletionProbe<Result<String, RequestError>>()
        Task { ended.record(await call.value) }
        // 60 s only bounds a failure: the refresh waited for itself, for good
        let outcome = await ended.first(timeout: 60)
        if outcome == nil { call.cancel() }
        #expect(try #require(outcome).get() == "ok")
        let paths = sent.withLock {
            $0.map { "\($0.url?.lastPathComponent ?? "") \($0.headerValue("Authorization") ?? "-")" }
        }
        #expect(paths == ["data Bearer old", "token -", "data Bearer fresh"])
    }

    /// Refreshes with a fixed credential and starts a task that, once `later` is opened, calls
    /// through the session in `session`: a task the refresh started that outlives it.
    struct LingeringAuthenticator: Authenticator {
        let session: Locked<Session?>
        let later = RefreshHold()
        let lingering = Locked<Task<Result<String, RequestError>, Never>?>(nil)

        func apply(_ credential: String, to urlRequest: inout URLRequest) throws {
            urlRequest.setValue("Bearer \(credential)", forHTTPHeaderField: "Authorization")
        }

        func refresh() async throws -> String {
            let session = try #require(session.withLock { $0 })
            let later = later
            lingering.withLock {
                $0 = Task {
                    await later.pass()
                    return await TextRequest(path: "later").result(session: session)
                }
            }
            return "fresh"
        }
    }

    @Test("a task a refresh started that outlives it sends its requests with the credential, as any other")
    func taskOutlivingItsRefresh() async throws {
        let transport = StubTransport { request in
            request.headerValue("Authorization") == "Bearer fresh" ? .success(body: "ok") : .success(status: 401)
        }
        let holder = Locked<Session?>(nil)
        let authenticator = LingeringAuthenticator(session: holder)
        let session = Session(transport: transport, credentialStore: CredentialStore(authenticator, credential: "old"))
        holder.withLock { $0 = session }
        #expect(try await TextRequest(path: "data").result(session: session).get() == "ok")
        // the refresh has ended: its task's request is authorized, not passed as it is
        authenticator.later.open()
        let lingering = try #require(authenticator.lingering.withLock { $0 })
        #expect(try await lingering.value.get() == "ok")
    }

    /// Refreshes by calling `path` through the session in `session`, once `hold` lets it.
    struct TokenAuthenticator: Authenticator {
        let path: String
        let session: Locked<Session?>
        var hold: RefreshHold?

        func apply(_ credential: String, to urlRequest: inout URLRequest) throws {
            urlRequest.setValue("Bearer \(credential)", forHTTPHeaderField: "Authorization")
        }

        func refresh() async throws -> String {
            await hold?.pass()
            let session = try #require(session.withLock { $0 })
            return try await TextRequest(path: path).response(using: session)
        }
    }

    /// Holds a refresh at its start until the test opens it.
    final class RefreshHold: Sendable {
        let started = CompletionProbe<Bool>()
        private let gate = AsyncStream<Void>.makeStream()

        func pass() async {
            started.record(true)
            for await _ in gate.stream {}
        }

        func open() {
            gate.continuation.finish()
        }
    }

    /// Two sessions over `transport`: A's store refreshes through `token-a` on B's session, B's
    /// through `token-b` on A's, each held by its `hold` when there is one.
    static func crossedSessions(
        _ transport: StubTransport, holdA: RefreshHold? = nil, holdB: RefreshHold? = nil
    ) -> (a: Session, b: Session, storeA: CredentialStore, storeB: CredentialStore) {
        let (holderA, holderB) = (Locked<Session?>(nil), Locked<Session?>(nil))
        let storeA = CredentialStore(
            TokenAuthenticator(path: "token-a", session: holderB, hold: holdA), credential: "a-old")
        let storeB = CredentialStore(
            TokenAuthenticator(path: "token-b", session: holderA, hold: holdB), credential: "b-old")
        let sessionA = Session(transport: transport, credentialStore: storeA)
        let sessionB = Session(transport: transport, credentialStore: storeB)
        holderA.withLock { $0 = sessionA }
        holderB.withLock { $0 = sessionB }
        return (sessionA, sessionB, storeA, storeB)
    }

    /// Waits until `count` requests wait for the refresh of `store` (120 s only bounds a failure).
    static func waiters(_ count: Int, of store: CredentialStore) async throws {
        let typed = try #require(store.storage as? TypedCredentialStore<TokenAuthenticator>)
        for _ in 0..<12_000 where typed.waitingForRefresh < count {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(typed.waitingForRefresh == count)
    }

    /// `(path, Authorization)` of each request `sent`, in order.
    static func paths(_ sent: Locked<[URLRequest]>) -> [String] {
        sent.withLock { $0.map { "\($0.url?.lastPathComponent ?? "") \($0.headerValue("Authorization") ?? "-")" } }
    }

    /// A's token endpoint is behind B's credential, B's is open and rejects a stale credential;
    /// `data-a` and `data-b` want the fresh credential of A and of B.
    static func crossedServer(_ sent: Locked<[URLRequest]>) -> StubTransport {
        StubTransport { request in
            sent.withLock { $0.append(request) }
            let authorization = request.headerValue("Authorization")
            switch request.url?.lastPathComponent {
            case "token-a": return authorization == "Bearer b-fresh" ? .success(body: "a-fresh") : .success(status: 401)
            case "token-b": return authorization == nil ? .success(body: "b-fresh") : .success(status: 401)
            case "data-a": return authorization == "Bearer a-fresh" ? .success(body: "ok") : .success(status: 401)
            default: return authorization == "Bearer b-fresh" ? .success(body: "ok") : .success(status: 401)
            }
        }
    }

    /// Calls `first`, whose refresh `held` holds, then `then`; opens the hold once two requests
    /// wait for the refresh of `store`; the outcomes, `first`'s then `then`'s.
    static func crossedCalls(
        first: (path: String, session: Session), then: (path: String, session: Session), held: RefreshHold,
        store: CredentialStore
    ) async throws -> [Result<String, RequestError>] {
        let firstCall = Task { await TextRequest(path: first.path).result(session: first.session) }
        #expect(await held.started.first() == true, "the first refresh did not start")
        let thenCall = Task { await TextRequest(path: then.path).result(session: then.session) }
        try await waiters(2, of: store)
        held.open()
        let ended = CompletionProbe<[Result<String, RequestError>]>()
        Task { ended.record([await firstCall.value, await thenCall.value]) }
        // 60 s only bounds a failure: the two refreshes waited for each other
        let outcomes = await ended.first(timeout: 60)
        if outcomes == nil {
            firstCall.cancel()
            thenCall.cancel()
        }
        return try #require(outcomes)
    }

    @Test(
        "crossed refreshes, B's already running when A's token request waits for it: B's request passes A's step"
    )
    func crossedRefreshesRunningFirst() async throws {
        let sent = Locked<[URLRequest]>([])
        let holdB = RefreshHold()
        let sessions = Self.crossedSessions(Self.crossedServer(sent), holdB: holdB)
        // data-b and A's token request wait for B's refresh
        let outcomes = try await Self.crossedCalls(
            first: ("data-b", sessions.b), then: ("data-a", sessions.a), held: holdB, store: sessions.storeB)
        #expect(try outcomes.map { try $0.get() } == ["ok", "ok"])
        let paths = Self.paths(sent)
        // A's token request waited for B's refresh before anything was applied, and was not sent then
        #expect(Array(paths.prefix(3)) == ["data-b Bearer b-old", "data-a Bearer a-old", "token-b -"])
        #expect(
            Set(paths.dropFirst(3)) == ["data-b Bearer b-fresh", "token-a Bearer b-fresh", "data-a Bearer a-fresh"])
        // data-b's replay and A's chain run at once; A's token comes before A's replay
        let (token, replay) = (
            paths.firstIndex(of: "token-a Bearer b-fresh"), paths.firstIndex(of: "data-a Bearer a-fresh")
        )
        #expect(try #require(token) < #require(replay))
    }

    @Test(
        "crossed refreshes, B's token request waiting for A's first: A's token request passes B's step, and both fail clearly"
    )
    func crossedRefreshesWaitingFirst() async throws {
        let sent = Locked<[URLRequest]>([])
        let holdA = RefreshHold()
        let sessions = Self.crossedSessions(Self.crossedServer(sent), holdA: holdA)
        // data-a and B's token request wait for A's refresh
        let outcomes = try await Self.crossedCalls(
            first: ("data-a", sessions.a), then: ("data-b", sessions.b), held: holdA, store: sessions.storeA)
        for outcome in outcomes {
            // A's token endpoint wants B's credential, which waits for A: A's refresh fails, and B's with it
            guard case .failure(.requestInterceptorFailed(let failure as CredentialRefreshFailed, _)) = outcome else {
                Issue.record("expected a failed refresh, got \(outcome)")
                continue
            }
            #expect(failure.underlyingError is RequestError)
        }
        #expect(Self.paths(sent).contains("token-a -"), "A's token request passed B's step as it was")
    }

    @Test(
        "refreshes nested across two stores: B's refresh, made for A's, calls through A's session and passes A's step"
    )
    func nestedRefreshesAcrossStores() async throws {
        let sent = Locked<[URLRequest]>([])
        let transport = StubTransport { request in
            sent.withLock { $0.append(request) }
            let authorization = request.headerValue("Authorization")
            switch request.url?.lastPathComponent {
            case "token-a":  // A's token endpoint is behind B's credential
                return authorization == "Bearer b-fresh" ? .success(body: "a-fresh") : .success(status: 401)
            case "token-b":  // B's is open, and rejects a stale credential
                return authorization == nil ? .success(body: "b-fresh") : .success(status: 401)
            default:
                return authorization == "Bearer a-fresh" ? .success(body: "ok") : .success(status: 401)
            }
        }
        let (holderA, holderB) = (Locked<Session?>(nil), Locked<Session?>(nil))
        // A refreshes through B's session, B through A's
        let sessionA = Session(
            transport: transport,
            credentialStore: CredentialStore(TokenAuthenticator(path: "token-a", session: holderB), credential: "a-old")
        )
        let sessionB = Session(
            transport: transport,
            credentialStore: CredentialStore(TokenAuthenticator(path: "token-b", session: holderA), credential: "b-old")
        )
        holderA.withLock { $0 = sessionA }
        holderB.withLock { $0 = sessionB }
        let call = Task { await TextRequest(path: "data").result(session: sessionA) }
        let ended = CompletionProbe<Result<String, RequestError>>()
        Task { ended.record(await call.value) }
        // 60 s only bounds a failure: B's refresh waited for A's, which waited for B's
        let outcome = await ended.first(timeout: 60)
        if outcome == nil { call.cancel() }
        #expect(try #require(outcome).get() == "ok")
        let paths = sent.withLock {
            $0.map { "\($0.url?.lastPathComponent ?? "") \($0.headerValue("Authorization") ?? "-")" }
        }
        #expect(
            paths == [
                "data Bearer a-old", "token-a Bearer b-old", "token-b -", "token-a Bearer b-fresh",
                "data Bearer a-fresh",
            ])
    }

    @Test("a 401 for a credential already replaced replays with the new one, without a second refresh")
    func staleRejectionAfterRefresh() async throws {
        let server = StubTransport { request in
            request.headerValue("Authorization") == "Bearer token-1" ? .success(body: "ok") : .success(status: 401)
        }
        // the late request, with the old credential, is held on the wire until the other request
        // got its refresh
        let transport = GatedTransport(server) { request in
            request.url?.lastPathComponent == "late" && request.headerValue("Authorization") == "Bearer expired"
        }
        let authenticator = CountingAuthenticator()
        let session = Session(
            transport: transport, credentialStore: CredentialStore(authenticator, credential: "expired"))
        let late = CompletionProbe<Result<String, RequestError>>()
        TextRequest(path: "late").perform(using: session) { late.record($0) }
        #expect(await transport.held.first() != nil, "the late request was not sent")
        #expect(try await session.performProbed(TextRequest(path: "early")).result?.get() == "ok")
        #expect(authenticator.count == 1)
        transport.open()
        #expect(try #require(await late.first()).get() == "ok")
        #expect(authenticator.count == 1)
    }

    @Test("a 401 that arrives after the refresh for its credential failed fails with that error, not a new refresh")
    func lateRejectionAfterFailedRefresh() async throws {
        let server = StubTransport { _ in .success(status: 401) }
        // the late request, with the rejected credential, is held on the wire until the refresh failed
        let transport = GatedTransport(server) { request in request.url?.lastPathComponent == "late" }
        let authenticator = CountingAuthenticator(fails: true)
        let session = Session(
            transport: transport, credentialStore: CredentialStore(authenticator, credential: "expired"))
        let late = CompletionProbe<Result<String, RequestError>>()
        TextRequest(path: "late").perform(using: session) { late.record($0) }
        #expect(await transport.held.first() != nil, "the late request was not sent")
        let early = await TextRequest(path: "early").result(session: session)
        #expect(authenticator.count == 1)
        transport.open()
        for value in [early, try #require(await late.first())] {
            guard case .failure(.requestInterceptorFailed(let error as CredentialRefreshFailed, _)) = value else {
                Issue.record("unexpected \(value)")
                continue
            }
            #expect(error.underlyingError is CountingAuthenticator.RefreshDenied)
        }
        #expect(authenticator.count == 1, "the late rejection reuses the failure of its credential's refresh")
    }

    @Test("retries and a refresh combine: 503, 401, 200")
    func retryThenRefresh() async throws {
        let count = Locked(0)
        let transport = StubTransport { request in
            let number = count.withLock { count in
                count += 1
                return count
            }
            if number == 1 { return .success(status: 503) }
            return request.headerValue("Authorization") == "Bearer token-1"
                ? .success(body: "ok") : .success(status: 401)
        }
        let authenticator = CountingAuthenticator()
        let session = Session(
            transport: transport,
            retryPolicy: WaitRecorder().policy(),
            credentialStore: CredentialStore(authenticator, credential: "expired")
        ).timed(by: WaitRecorder())
        #expect(try await session.performProbed(TextRequest()).result?.get() == "ok")
        #expect(authenticator.count == 1)
        #expect(count.withLock { $0 } == 3)
    }

    /// The results of 50 `TextRequest`s sent at once through `session`.
    private static func fiftyResults(through session: Session) async -> [Result<String, RequestError>] {
        await withTaskGroup(of: Result<String, RequestError>.self) { group in
            for _ in 0..<50 {
                group.addTask { await TextRequest().result(session: session) }
            }
            var values: [Result<String, RequestError>] = []
            for await value in group { values.append(value) }
            return values
        }
    }
}
