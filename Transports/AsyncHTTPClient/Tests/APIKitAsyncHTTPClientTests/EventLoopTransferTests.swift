import APIKit
import APIKitTestSupport
import AsyncHTTPClient
import Foundation
import NIOPosix
import Testing

@testable import APIKitAsyncHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The event-loop road of AsyncHTTPClientTransport's `send`: which requests take it, and how a
// transfer on it ends. The integration suite runs every plain request over it; these pin what
// is the road's own, with the idle clock driven by hand where time matters.
@Suite(
    "EventLoopTransfer: the requests that run on the event loop, and how they end",
    .enabled(if: HTTPBin.url != nil && FaultServer.url != nil, FaultServer.skipReason))
struct EventLoopTransferTests {
    private static let second: UInt64 = 1_000_000_000

    /// A transport kept alive by each transfer, as the transport keeps itself.
    private let owner = AsyncHTTPClientTransport(client: .shared)

    @Test("a body read from a stream is left to the task road; a body in memory is sent from the event loop")
    func whichRequestsTakeTheRoad() async throws {
        var streamed = URLRequest(url: HTTPBin.baseURL.appendingPathComponent("anything"))
        streamed.httpMethod = "POST"
        streamed.httpBodyStream = InputStream(data: Data("streamed".utf8))
        let none = EventLoopTransfer.start(streamed, on: .shared, owner: owner) { _ in
            Issue.record("a streamed body's completion ran on the event-loop road")
        }
        #expect(none == nil)

        var inMemory = URLRequest(url: HTTPBin.baseURL.appendingPathComponent("anything"))
        inMemory.httpMethod = "PUT"
        inMemory.httpBody = Data(#"{"sent":true}"#.utf8)
        inMemory.setValue("application/json", forHTTPHeaderField: "Content-Type")
        inMemory.setValue("3", forHTTPHeaderField: "Content-Length")  // framing is the client's
        let ended = CompletionProbe<Result<TransportResponse, any Error>>()
        let transfer = EventLoopTransfer.start(inMemory, on: .shared, owner: owner, completion: ended.handler)
        #expect(transfer != nil)
        let result = try #require(await ended.first(), "no completion within 120 s")
        let response = try result.get()
        let echo = try JSONDecoder().decode(Echo<NoJSONBody>.self, from: response.data)
        #expect(echo.method == "PUT")
        #expect(echo.data == #"{"sent":true}"#)
        #expect(echo.header("Content-Length") == "13")
        #expect(echo.header("Content-Type") == "application/json")
        #expect((response.urlResponse as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test("the completion runs on a Dispatch thread, never on the event loop, once, and is then released")
    func completionOffTheEventLoop() async throws {
        let onEventLoop = Protected<Bool?>(nil)
        let ended = CompletionProbe<Result<TransportResponse, any Error>>()
        do {
            let request = URLRequest(url: HTTPBin.baseURL.appendingPathComponent("get"))
            _ = EventLoopTransfer.start(
                request, on: .shared, owner: owner,
                completion: ended.handler { _ in
                    onEventLoop.withLock { $0 = MultiThreadedEventLoopGroup.currentEventLoop != nil }
                })
            let result = try #require(await ended.first(), "no completion within 120 s")
            #expect((try result.get().urlResponse as? HTTPURLResponse)?.statusCode == 200)
        }
        #expect(onEventLoop.value == false)
        #expect(await ended.released(), "the completion is still held")
        #expect(ended.count == 1)
    }

    @Test("idle on the event loop: timed out at the sweeper's second look, with .timedOut, once")
    func idleTimeout() async throws {
        let clock = Protected<UInt64>(0)
        let sweeper = IdleSweeper(now: { [clock] in clock.value }, startsThread: false)
        var request = URLRequest(url: FaultServer.baseURL.appendingPathComponent("never"))
        request.timeoutInterval = 1
        let ended = CompletionProbe<Result<TransportResponse, any Error>>()
        let transfer = try #require(
            EventLoopTransfer.start(request, on: .shared, owner: owner, sweeper: sweeper, completion: ended.handler))
        #expect(sweeper.nextLook == Self.second, "the clock starts with the transfer")
        clock.withLock { $0 = Self.second - 1 }
        #expect(sweeper.look(at: Self.second - 1).isEmpty, "not due yet")
        #expect(sweeper.look(at: Self.second).isEmpty, "the first look that finds it idle only looks again")
        let expired = sweeper.look(at: Self.second + 50_000_000)
        #expect(expired.map { ObjectIdentifier($0) } == [ObjectIdentifier(transfer)])
        let result = try #require(await ended.first(), "the timed-out transfer never ended")
        #expect(urlErrorCode(result) == .timedOut, "\(result)")
        // a look or a cancel after the end changes nothing
        transfer.timeOut()
        transfer.cancel()
        #expect(sweeper.nextLook == .max, "the ended transfer is still watched")
        #expect(await ended.released(), "the completion is still held")
        #expect(ended.count == 1)
    }

    @Test("the transport's async send: the response returned in the awaiting task, a body read from a stream too")
    func asyncSend() async throws {
        let transport = AsyncHTTPClientTransport(client: .shared)
        var inMemory = URLRequest(url: HTTPBin.baseURL.appendingPathComponent("anything"))
        inMemory.httpMethod = "POST"
        inMemory.httpBody = Data("in memory".utf8)
        var streamed = inMemory
        streamed.httpBody = nil
        streamed.httpBodyStream = InputStream(data: Data("streamed".utf8))
        for (request, body) in [(inMemory, "in memory"), (streamed, "streamed")] {
            let response = try await transport.send(request)
            let echo = try JSONDecoder().decode(Echo<NoJSONBody>.self, from: response.data)
            #expect(echo.data == body)
            #expect((response.urlResponse as? HTTPURLResponse)?.statusCode == 200)
        }
    }

    @Test("cancelling the task awaiting the transport's async send stops the transfer: .cancelled")
    func asyncSendCancelled() async throws {
        let transport = AsyncHTTPClientTransport(client: .shared)
        var request = URLRequest(url: FaultServer.baseURL.appendingPathComponent("never"))
        request.timeoutInterval = 0  // no idle timeout: only the cancellation can end it
        let ended = CompletionProbe<Result<TransportResponse, any Error>>()
        let call = Task {
            do {
                ended.record(.success(try await transport.send(request)))
            } catch {
                ended.record(.failure(error))
            }
        }
        call.cancel()
        let result = try #require(await ended.first(), "the cancelled send never returned")
        #expect(urlErrorCode(result) == .cancelled, "\(result)")
    }

    @Test("cancel stops a transfer the server never answers: .cancelled, once")
    func cancel() async throws {
        var request = URLRequest(url: FaultServer.baseURL.appendingPathComponent("never"))
        request.timeoutInterval = 0  // no idle timeout: only the cancel can end it
        let ended = CompletionProbe<Result<TransportResponse, any Error>>()
        let transfer = try #require(
            EventLoopTransfer.start(request, on: .shared, owner: owner, completion: ended.handler))
        transfer.cancel()
        transfer.cancel()
        let result = try #require(await ended.first(), "the cancelled transfer never ended")
        #expect(urlErrorCode(result) == .cancelled, "\(result)")
        if case .failure(let error as URLError) = result {
            #expect(error.userInfo[NSUnderlyingErrorKey] != nil, "the AsyncHTTPClient error is not reachable")
        }
        #expect(await ended.released(), "the completion is still held")
        #expect(ended.count == 1)
    }
}
