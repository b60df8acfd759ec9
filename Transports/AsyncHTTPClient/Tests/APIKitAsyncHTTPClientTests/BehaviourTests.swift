import APIKit
import APIKitAsyncHTTPClient
import AsyncHTTPClient
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Cancellation, timeouts, errors and progress", .enabled(if: Servers.allSet, Servers.skipReason))
struct BehaviourTests {
    @Test("cancelling a request the server never answers completes it once, promptly, with .cancelled")
    func cancelNever() async throws {
        let request = URLRequest(url: Servers.faultURL.appendingPathComponent("never"))
        let started = Date()
        let result = try await send(request, through: AsyncHTTPClientTransport(client: .shared), cancelAfter: 0.3)
        #expect(urlErrorCode(result) == .cancelled)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("cancelling through Session reports RequestError.cancelled")
    func cancelThroughSession() async throws {
        let session = Session(transport: AsyncHTTPClientTransport(client: .shared))
        let task = Task { try await session.response(for: GetEcho(base: Servers.faultURL, path: "never")) }
        try await Task.sleep(nanoseconds: 300_000_000)
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("a cancelled request succeeded")
        } catch let error as RequestError {
            guard case .cancelled = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
    }

    @Test("timeoutInterval fails a request with no answer with .timedOut")
    func timeout() async throws {
        var request = URLRequest(url: Servers.faultURL.appendingPathComponent("never"))
        request.timeoutInterval = 1
        let started = Date()
        let result = try await send(request, through: AsyncHTTPClientTransport(client: .shared))
        #expect(urlErrorCode(result) == .timedOut)
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 0.9 && elapsed < 5, "timed out after \(elapsed) s")
    }

    @Test("timeoutInterval is an idle timeout: a body that stalls longer than it fails with .timedOut")
    func idleTimeoutDuringBody() async throws {
        var request = URLRequest(url: Servers.faultURL.appendingPathComponent("drip-stall"))
        request.timeoutInterval = 2
        let result = try await send(request, through: AsyncHTTPClientTransport(client: .shared))
        #expect(urlErrorCode(result) == .timedOut)
    }

    @Test("a body that keeps coming within the idle timeout is received whole")
    func slowBodyWithinIdleTimeout() async throws {
        var request = URLRequest(url: Servers.faultURL.appendingPathComponent("drip"))
        request.url = URL(string: Servers.faultURL.absoluteString + "/drip?interval=0.1")
        request.timeoutInterval = 1
        let response = try await send(request, through: AsyncHTTPClientTransport(client: .shared)).get()
        #expect(response.data.count == 20)
    }

    @Test("a refused connection fails at once with .cannotConnectToHost when the client does not retry")
    func refusedOwnedClient() async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let request = URLRequest(url: try refusedURL())
        let started = Date()
        let result = try await send(request, through: transport)
        #expect(urlErrorCode(result) == .cannotConnectToHost)
        #expect(Date().timeIntervalSince(started) < 3)
        if case .failure(let error as URLError) = result {
            #expect(error.userInfo[NSUnderlyingErrorKey] != nil, "the AsyncHTTPClient error is not reachable")
        }
        try await transport.shutdown()
    }

    @Test("over HTTPClient.shared (which retries connecting) a refused connection fails within the timeout")
    func refusedSharedClient() async throws {
        var request = URLRequest(url: try refusedURL())
        request.timeoutInterval = 1
        let result = try await send(request, through: AsyncHTTPClientTransport(client: .shared))
        #expect(urlErrorCode(result) == .cannotConnectToHost)
    }

    @Test("a reset connection is .networkConnectionLost; a redirect loop .httpTooManyRedirects")
    func mappedErrors() async throws {
        let transport = AsyncHTTPClientTransport(client: .shared)
        let reset = try await send(
            URLRequest(url: Servers.faultURL.appendingPathComponent("reset-before-status")), through: transport)
        #expect(urlErrorCode(reset) == .networkConnectionLost)
        let loop = try await send(
            URLRequest(url: Servers.faultURL.appendingPathComponent("redirect-loop")), through: transport)
        #expect(urlErrorCode(loop) == .httpTooManyRedirects)
    }

    @Test("upload and download progress are reported, in order, and never after the completion")
    func progress() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("p.bin", size: 500_000)
        let request = try WholeFileUpload(base: Servers.httpbinURL, path: "anything", file: file).makeURLRequest()
        let reports = Locked<[TransferProgress]>([])
        let completedAfter = Locked<Int?>(nil)
        let probe = Probe<Result<TransportResponse, any Error>>()
        _ = AsyncHTTPClientTransport(client: .shared).send(
            request,
            progress: { progress in reports.mutate { $0.append(progress) } },
            completion: { result in
                completedAfter.mutate { $0 = reports.value.count }
                probe.record(result)
            })
        let response = try #require(await probe.first()).get()
        try await Task.sleep(nanoseconds: 100_000_000)
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

    @Test("200 concurrent requests, some cancelled at random, each complete exactly once")
    func exactlyOnceUnderLoad() async throws {
        let transport = AsyncHTTPClientTransport(client: .shared)
        var generator = SystemRandomNumberGenerator()
        let probes = (0..<200).map { _ in Probe<Result<TransportResponse, any Error>>() }
        var tasks: [any TransportTask] = []
        for (index, probe) in probes.enumerated() {
            let path = index % 4 == 0 ? "never" : "ok"
            tasks.append(
                transport.send(URLRequest(url: Servers.faultURL.appendingPathComponent(path))) { probe.record($0) })
        }
        for (index, task) in tasks.enumerated() where index % 4 == 0 || Bool.random(using: &generator) {
            if Bool.random(using: &generator) { try await Task.sleep(nanoseconds: UInt64.random(in: 0...2_000_000)) }
            task.cancel()
        }
        var succeeded = 0
        var cancelled = 0
        for probe in probes {
            let result = try #require(await probe.first(timeout: 60), "a request never completed")
            switch result {
            case .success: succeeded += 1
            case .failure: #expect(urlErrorCode(result) == .cancelled, "\(result)"); cancelled += 1
            }
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(probes.allSatisfy { $0.count == 1 }, "a completion came more than once")
        #expect(cancelled >= 50)
        #expect(succeeded + cancelled == 200)
    }
}

@Suite("Lifecycle", .enabled(if: Servers.allSet, Servers.skipReason))
struct LifecycleTests {
    @Test("a transport over HTTPClient.shared never shuts it down, even when asked to")
    func sharedIsNeverShutDown() async throws {
        do {
            let transport = AsyncHTTPClientTransport(client: .shared)
            try await transport.shutdown()
            try transport.syncShutdownOutsideAsync()
        }
        let response = try await send(
            URLRequest(url: Servers.faultURL.appendingPathComponent("ok")), through: AsyncHTTPClientTransport()
        ).get()
        #expect((response.urlResponse as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test("a transport with its own client shuts it down cleanly, once; later requests fail")
    func ownedShutsDown() async throws {
        let transport = AsyncHTTPClientTransport(configuration: HTTPClient.Configuration())
        let ok = try await send(URLRequest(url: Servers.faultURL.appendingPathComponent("ok")), through: transport)
        #expect((try ok.get().urlResponse as? HTTPURLResponse)?.statusCode == 200)
        try await transport.shutdown()
        try await transport.shutdown()
        let after = try await send(URLRequest(url: Servers.faultURL.appendingPathComponent("ok")), through: transport)
        guard case .failure = after else {
            Issue.record("a request after shutdown succeeded")
            return
        }
    }

    @Test("a transport with its own client released without shutdown shuts it down itself")
    func ownedReleasedWithoutShutdown() async throws {
        do {
            let transport = AsyncHTTPClientTransport(configuration: HTTPClient.Configuration())
            _ = try await send(URLRequest(url: Servers.faultURL.appendingPathComponent("ok")), through: transport)
        }
        // AsyncHTTPClient traps in debug builds when a client is released while running
        try await Task.sleep(nanoseconds: 300_000_000)
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

/// A URL on 127.0.0.1 where nothing listens (a port just bound and released).
func refusedURL() throws -> URL {
    let port = try #require(unusedLocalPort(), "could not find a free local port")
    return try #require(URL(string: "http://127.0.0.1:\(port)/"))
}

/// A TCP port on 127.0.0.1 that was free a moment ago: bound to port 0, then closed unlistened.
func unusedLocalPort() -> UInt16? {
    #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return nil }
    defer { close(fd) }

    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bind(fd, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard bound == 0 else { return nil }

    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            getsockname(fd, socketAddress, &length)
        }
    }
    guard named == 0 else { return nil }
    let port = UInt16(bigEndian: address.sin_port)
    return port == 0 ? nil : port
}

/// A value behind a lock, for closures that run on other threads.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `stored` is only touched with `lock` held.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func mutate(_ body: (inout Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&stored)
    }
}

@Suite("Progress of a body in memory", .enabled(if: Servers.allSet, Servers.skipReason))
struct InMemoryProgressTests {
    @Test("a JSON body counts as sent, with its length, before the response is reported")
    func inMemoryBody() async throws {
        let request = try PostItem(base: Servers.httpbinURL, item: Item(id: 1, name: "x")).makeURLRequest()
        let length = try #require(request.httpBody?.count)
        let reports = Locked<[TransferProgress]>([])
        let probe = Probe<Result<TransportResponse, any Error>>()
        _ = AsyncHTTPClientTransport().send(
            request, progress: { progress in reports.mutate { $0.append(progress) } },
            completion: { probe.record($0) })
        _ = try #require(await probe.first()).get()
        let all = reports.value
        #expect(all.first?.expectedBytesToSend == Int64(length))
        #expect(all.allSatisfy { $0.bytesSent == 0 || $0.bytesSent == Int64(length) })
        #expect(all.last?.bytesSent == Int64(length))
        #expect(all.last?.bytesReceived ?? 0 > 0)
    }
}
