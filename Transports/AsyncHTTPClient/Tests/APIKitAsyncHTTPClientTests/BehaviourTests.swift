import APIKit
import APIKitTestSupport
import AsyncHTTPClient
import Foundation
import Testing

@testable import APIKitAsyncHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Cancellation, the idle timeout, the error mapping and exactly-once completion are covered by
// the integration suite (Tests/APIKitIntegrationTests), which runs over this transport in this
// target; these tests pin what is this transport's own.
@Suite(
    "Connections, redirects and progress through AsyncHTTPClientTransport",
    .enabled(if: HTTPBin.url != nil && FaultServer.url != nil, FaultServer.skipReason))
struct BehaviourTests {
    @Test("a refused connection fails at once with .cannotConnectToHost when the client does not retry")
    func refusedOwnedClient() async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(60)
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        var request = URLRequest(url: try HTTPBin.refusedURL())
        request.timeoutInterval = 60
        let started = Date()
        let result = try await send(request, through: transport)
        #expect(urlErrorCode(result) == .cannotConnectToHost)
        // "at once": a client that retried would wait for the 60 s timeouts; the bound leaves
        // room for a loaded machine
        #expect(Date().timeIntervalSince(started) < 30)
        if case .failure(let error as URLError) = result {
            #expect(error.userInfo[NSUnderlyingErrorKey] != nil, "the AsyncHTTPClient error is not reachable")
        }
        try await transport.shutdown()
    }

    /// Sends `request` from this thread and notes in `calledInside` whether `completion` ran
    /// inside `send`, on this thread.
    static func sendNotingReentry(
        _ request: URLRequest, through transport: AsyncHTTPClientTransport,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void, calledInside: Protected<Bool>
    ) {
        let caller = pthread_self()
        let inSend = Protected(true)
        _ = transport.send(request, progress: nil) { result in
            if inSend.value, pthread_equal(caller, pthread_self()) != 0 { calledInside.withLock { $0 = true } }
            completion(result)
        }
        inSend.withLock { $0 = false }
    }

    @Test("a request refused before it is sent (an unsupported scheme) completes once, never from inside send")
    func refusedBeforeSending() async throws {
        let transport = AsyncHTTPClientTransport(client: .shared)
        for url in ["ftp://127.0.0.1/file", "http:///no-host"] {
            let calledInside = Protected(false)
            let ended = CompletionProbe<Result<TransportResponse, any Error>>()
            // The transfer starts on this thread: a failure before its first suspension must
            // not call the completion from inside `send`, on the caller's thread. (A call on
            // another thread may come as `send` returns: nothing orders it after the caller's
            // next line, so the test does not ask for that.)
            Self.sendNotingReentry(
                URLRequest(url: try #require(URL(string: url))), through: transport,
                completion: ended.handler { _ in }, calledInside: calledInside)
            let result = try #require(await ended.first(), "\(url): no completion within 120 s")
            #expect(!calledInside.value, "\(url): the completion ran inside send, on the caller's thread")
            #expect([.unsupportedURL, .badURL].contains(urlErrorCode(result)), "\(url): \(result)")
            // once the transfer has let go of the completion, nothing can call it again
            #expect(await ended.released(), "\(url): the completion is still held")
            #expect(ended.count == 1, "\(url)")
        }
    }

    @Test(
        "a progress handler that holds its thread does not hold back another transfer's idle timeout",
        arguments: [true, false])
    func heldProgressDoesNotDelayTimeouts(streamedBody: Bool) async throws {
        let transport = AsyncHTTPClientTransport(client: .shared)
        // A progress step of `held` with response bytes sends `never` (1 s idle timeout) and
        // blocks the thread it runs on until `never` has ended (30 s at most, so that a failure
        // cannot hang the suite): with a streamed body, the thread of `held`'s task (the task
        // road); with a body in memory, a thread of its progress queue (the event-loop road). A
        // blocked thread is what this test is about: a progress handler is synchronous, and one
        // that takes its time holds the thread that called it. The release comes from `never`'s
        // completion, called on the event loop, not from this test's task nor from a Dispatch
        // worker: a worker thread held here must not wait for another worker (on Linux Swift's
        // tasks and Dispatch share libdispatch's workers, and a loaded machine has few to spare).
        var idle = URLRequest(url: try #require(FaultServer.url).appendingPathComponent("never"))
        idle.timeoutInterval = 1
        let never = idle
        let release = DispatchSemaphore(value: 0)
        let neverEnded = CompletionProbe<(result: Result<TransportResponse, any Error>, seconds: TimeInterval)>()
        let heldEnded = CompletionProbe<Result<TransportResponse, any Error>>()
        let sent = Protected(false)
        var held = URLRequest(url: HTTPBin.baseURL.appendingPathComponent("anything"))
        held.httpMethod = "POST"
        let body = Data(repeating: 0x61, count: 100_000)
        if streamedBody {
            held.httpBodyStream = InputStream(data: body)
        } else {
            held.httpBody = body
        }
        held.timeoutInterval = 60
        _ = transport.send(
            held,
            progress: { step in
                guard step.bytesReceived > 0,
                    !sent.withLock({ sent in
                        defer { sent = true }; return sent
                    })
                else { return }
                let started = Date()
                _ = EventLoopTransfer.start(never, on: .shared, owner: transport, queue: nil) { result in
                    neverEnded.record((result, Date().timeIntervalSince(started)))
                    release.signal()
                }
                _ = release.wait(timeout: .now() + 30)
            }
        ) { heldEnded.record($0) }
        let ended = try #require(
            await neverEnded.first(timeout: 60), "no progress from /anything, or never did not end")
        #expect(urlErrorCode(ended.result) == .timedOut)
        // A 1 s idle timeout, looked at twice; below the 30 s the other transfer is held.
        #expect(ended.seconds < 25, "the idle timeout came after \(ended.seconds) s")
        #expect(await heldEnded.first() != nil, "the held transfer did not end once released")
    }

    /// The difference from URLSession (which fails a refused connection at once) that the
    /// README documents, pinned.
    @Test("over HTTPClient.shared a refused connection is retried until the request's timeout")
    func refusedSharedClient() async throws {
        var request = URLRequest(url: try HTTPBin.refusedURL())
        request.timeoutInterval = 2
        let started = Date()
        let result = try await send(request, through: AsyncHTTPClientTransport(client: .shared))
        let elapsed = Date().timeIntervalSince(started)
        // AsyncHTTPClient's last connection error when its deadline ends the wait, or the idle
        // timeout's .timedOut when that comes first on a loaded machine
        let code = urlErrorCode(result)
        #expect(code == .cannotConnectToHost || code == .timedOut, "\(result)")
        #expect(elapsed >= 1.9, "failed after \(elapsed) s: the connection was not retried")
    }

    /// The other difference the README documents, pinned: `URLSession` gives each session its
    /// own connections, while one `HTTPClient` (`.shared` is one for the whole process) caps
    /// them per host, and a request waiting for one spends its timeout waiting.
    @Test("beyond the client's connections per host a request waits, and its timeout runs while it waits")
    func connectionsPerHost() async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 2
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let holdTag = UUID().uuidString
        let never = try #require(URL(string: FaultServer.baseURL.absoluteString + "/never?tag=\(holdTag)"))
        let holding = (0..<2).map { _ in transport.send(URLRequest(url: never), progress: nil) { _ in } }
        // both connections taken once the server has both requests (30 s at most)
        var held: [Int] = []
        for _ in 0..<600 where held.count < 2 {
            held = try await faultServerPorts(tag: holdTag)
            if held.count < 2 { await pause(0.05) }
        }
        try #require(held.count == 2, "the server got \(held.count) of the 2 holding requests within 120 s")
        let tag = UUID().uuidString
        var waiting = URLRequest(url: try #require(URL(string: FaultServer.baseURL.absoluteString + "/ok?tag=\(tag)")))
        waiting.timeoutInterval = 2
        let result = try await send(waiting, through: transport)
        #expect(urlErrorCode(result) == .timedOut, "\(result)")
        // the server never saw it: it waited for one of the two connections /never holds
        #expect(try await faultServerPorts(tag: tag) == [])
        for task in holding { task.cancel() }
        try? await transport.shutdown()
    }

    @Test("send(_:) in a task cancelled before the call throws cancelled and sends nothing")
    func cancelledBeforeTheCall() async throws {
        let transport = AsyncHTTPClientTransport()
        // a warm connection: the race that wrote a cancelled request's head needed one
        _ = try await send(URLRequest(url: FaultServer.baseURL.appendingPathComponent("ok")), through: transport)
        let tag = UUID().uuidString
        let url = try #require(URL(string: FaultServer.baseURL.absoluteString + "/ok?tag=\(tag)"))
        for _ in 0..<20 {
            let call = Task { () -> URLError.Code? in
                withUnsafeCurrentTask { $0?.cancel() }
                do {
                    _ = try await transport.send(URLRequest(url: url))
                    return nil
                } catch {
                    return (error as? URLError)?.code
                }
            }
            #expect(await call.value == .cancelled)
        }
        // what was written reaches the server at once; a second's wait only widens the window
        await pause(1)
        #expect(try await faultServerPorts(tag: tag) == [])
    }

    /// The client ports of the connections the fault server saw with `tag`.
    private func faultServerPorts(tag: String) async throws -> [Int] {
        var ports = URLComponents(url: FaultServer.baseURL, resolvingAgainstBaseURL: false)
        ports?.path = "/ports"
        ports?.queryItems = [URLQueryItem(name: "tag", value: tag)]
        let (seen, _) = try await URLSession.shared.data(for: URLRequest(url: try #require(ports?.url)))
        return try JSONDecoder().decode([Int].self, from: seen)
    }

    @Test("the response carries the status, the headers and the URL after redirects")
    func responseFields() async throws {
        let url = try #require(URL(string: HTTPBin.baseURL.absoluteString + "/redirect-to?url=/get&status_code=302"))
        let response = try await send(URLRequest(url: url), through: AsyncHTTPClientTransport()).get()
        let http = try #require(response.urlResponse as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.url?.path == "/get")
        #expect(http.value(forHTTPHeaderField: "content-type") == "application/json")
    }

    @Test("upload and download progress are reported, in order, and never after the completion")
    func progress() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("p.bin", size: 500_000)
        let request = try WholeFileUpload(base: HTTPBin.baseURL, path: "anything", file: file).makeURLRequest()
        let reports = Protected<[TransferProgress]>([])
        let completedAfter = Protected<Int?>(nil)
        let probe = CompletionProbe<Result<TransportResponse, any Error>>()
        let released = ReleaseProbe()
        _ = AsyncHTTPClientTransport(client: .shared).send(
            request,
            progress: released.watch { progress in reports.withLock { $0.append(progress) } },
            completion: probe.handler { _ in completedAfter.withLock { $0 = reports.value.count } })
        let response = try #require(await probe.first()).get()
        // once the transfer has let go of the progress closure, no report can follow
        #expect(await released.all(), "the progress closure is still held")
        #expect(await probe.released(), "the completion is still held")
        let all = reports.value
        #expect(completedAfter.value == all.count, "progress was reported after the completion")
        #expect(all.last?.bytesSent == 500_000)
        #expect(all.last?.expectedBytesToSend == 500_000)
        #expect(all.last?.bytesReceived == Int64(response.data.count))
        #expect(all.filter { $0.bytesSent > 0 && $0.bytesSent < 500_000 }.count > 1, "the upload came in one step")
        #expect(
            zip(all, all.dropFirst()).allSatisfy {
                $0.bytesSent <= $1.bytesSent && $0.bytesReceived <= $1.bytesReceived
            })
    }
}

@Suite("Lifecycle", .enabled(if: HTTPBin.url != nil && FaultServer.url != nil, FaultServer.skipReason))
struct LifecycleTests {
    @Test("a transport over HTTPClient.shared never shuts it down, even when asked to")
    func sharedIsNeverShutDown() async throws {
        do {
            let transport = AsyncHTTPClientTransport(client: .shared)
            try await transport.shutdown()
            try transport.syncShutdownOutsideAsync()
        }
        let response = try await send(
            URLRequest(url: FaultServer.baseURL.appendingPathComponent("ok")), through: AsyncHTTPClientTransport()
        ).get()
        #expect((response.urlResponse as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test("a transport with its own client shuts it down cleanly, once; later requests fail")
    func ownedShutsDown() async throws {
        let transport = AsyncHTTPClientTransport(configuration: HTTPClient.Configuration())
        let ok = try await send(URLRequest(url: FaultServer.baseURL.appendingPathComponent("ok")), through: transport)
        #expect((try ok.get().urlResponse as? HTTPURLResponse)?.statusCode == 200)
        try await transport.shutdown()
        try await transport.shutdown()
        let after = try await send(
            URLRequest(url: FaultServer.baseURL.appendingPathComponent("ok")), through: transport)
        guard case .failure = after else {
            Issue.record("a request after shutdown succeeded")
            return
        }
    }

    @Test("a transport with its own client released without shutdown shuts it down itself")
    func ownedReleasedWithoutShutdown() async throws {
        // The test keeps the client, not the transport, to see what releasing the transport did
        // to it. (Released while running, a client traps in debug builds; a transport that did
        // not shut it down fails the check below instead, as the test's own shutdown succeeds.)
        weak var released: AsyncHTTPClientTransport?
        let client: HTTPClient
        do {
            let transport = AsyncHTTPClientTransport(configuration: HTTPClient.Configuration())
            released = transport
            client = transport.client
            let ok = try await send(
                URLRequest(url: FaultServer.baseURL.appendingPathComponent("ok")), through: transport)
            #expect((try ok.get().urlResponse as? HTTPURLResponse)?.statusCode == 200)
        }
        // the transfer's task holds its transport until it has ended, a moment after the
        // completion (30 s at most)
        for _ in 0..<3000 where released != nil { await pause(0.01) }
        try #require(released == nil, "the transport was not released within 120 s")
        // released: it has started its client's shutdown, so the client refuses a second one and
        // any further request
        await #expect(throws: HTTPClientError.alreadyShutdown) { try await client.shutdown() }
        let after = try await send(
            URLRequest(url: FaultServer.baseURL.appendingPathComponent("ok")),
            through: AsyncHTTPClientTransport(client: client))
        #expect(after.failure != nil, "a request through the released transport's client succeeded")
    }

    @Test("syncShutdown of an owned client works outside async code")
    func syncShutdown() throws {
        let transport = AsyncHTTPClientTransport(configuration: HTTPClient.Configuration())
        try transport.syncShutdownOutsideAsync()
    }
}

extension AsyncHTTPClientTransport {
    /// `syncShutdown()` from a synchronous context, as its documentation asks.
    func syncShutdownOutsideAsync() throws {
        try syncShutdown()
    }
}

@Suite(
    "Progress of a body in memory", .enabled(if: HTTPBin.url != nil && FaultServer.url != nil, FaultServer.skipReason))
struct InMemoryProgressTests {
    @Test("a JSON body counts as sent, with its length, before the response is reported")
    func inMemoryBody() async throws {
        let request = try JSONEchoRequest().makeURLRequest()
        let length = try #require(request.httpBody?.count)
        let reports = Protected<[TransferProgress]>([])
        let probe = CompletionProbe<Result<TransportResponse, any Error>>()
        _ = AsyncHTTPClientTransport().send(
            request, progress: { progress in reports.withLock { $0.append(progress) } },
            completion: { probe.record($0) })
        _ = try #require(await probe.first()).get()
        let all = reports.value
        #expect(all.first?.expectedBytesToSend == Int64(length))
        #expect(all.allSatisfy { $0.bytesSent == 0 || $0.bytesSent == Int64(length) })
        #expect(all.last?.bytesSent == Int64(length))
        #expect(all.last?.bytesReceived ?? 0 > 0)
    }
}
