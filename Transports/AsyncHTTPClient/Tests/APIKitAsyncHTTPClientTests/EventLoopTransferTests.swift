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

    /// A progress handler watched by `released`, when `wanted`: a transfer with one ends through
    /// its progress queue.
    private static func progress(
        if wanted: Bool, _ released: ReleaseProbe
    ) -> (@Sendable (TransferProgress) -> Void)? {
        wanted ? released.watch { _ in } : nil
    }

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

        // a progress handler does not change the road: the steps are handed over off the loop
        let withProgressEnded = CompletionProbe<Result<TransportResponse, any Error>>()
        let withProgress = AsyncHTTPClientTransport(client: .shared).send(
            inMemory, progress: { _ in }, completion: withProgressEnded.handler)
        #expect(withProgress is EventLoopTransfer)
        _ = try #require(await withProgressEnded.first(), "no completion within 120 s").get()

        // a stream too, unless its body is read from a stream
        let transport = AsyncHTTPClientTransport(client: .shared)
        let inMemoryStream = StreamRecording()
        #expect(transport.stream(inMemory, onEvent: inMemoryStream.handler()) is EventLoopTransfer)
        #expect(try #require(await inMemoryStream.end.first(), "no end within 120 s") == .finished)
        let streamedStream = StreamRecording()
        #expect(!(transport.stream(streamed, onEvent: streamedStream.handler()) is EventLoopTransfer))
        #expect(try #require(await streamedStream.end.first(), "no end within 120 s") == .finished)
    }

    @Test("a stream reads ahead of a held consumer up to its queue's limit, then waits; the body ends whole")
    func streamReadsAheadWithinItsLimit() async throws {
        // httpbin echoes a 6 MiB body: a response several times the queue's limit, which the
        // connection delivers as fast as it is read
        var request = URLRequest(url: HTTPBin.baseURL.appendingPathComponent("anything"))
        request.httpMethod = "POST"
        request.httpBody = Data(repeating: UInt8(ascii: "a"), count: 6 << 20)
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }  // a failed expectation below must not hold the consumer
        let held = Protected(false)
        let largestChunk = Protected(0)
        let recording = StreamRecording()
        let task = AsyncHTTPClientTransport(client: .shared).stream(
            request,
            onEvent: recording.handler(
                { event in
                    if case .data(let chunk) = event { largestChunk.withLock { $0 = max($0, chunk.count) } }
                },
                hold: {
                    // the first chunk is held until the test has seen the queue stop at its limit
                    guard case .data = recording.events.last, !held.withLock({ $0 }) else { return }
                    held.withLock { $0 = true }
                    _ = release.wait(timeout: .now() + 60)
                }))
        let transfer = try #require(task as? EventLoopTransfer)
        var queued = 0
        for _ in 0..<6000 where queued <= EventLoopTransfer.streamQueueLimit {
            await pause(0.01)
            queued = transfer.queuedStreamBytes
        }
        #expect(queued > EventLoopTransfer.streamQueueLimit, "the connection did not read ahead: \(queued) bytes")
        // it stopped there: a look a moment later finds no more
        await pause(0.2)
        let afterPause = transfer.queuedStreamBytes
        release.signal()
        #expect(try #require(await recording.end.first(), "no end within 120 s") == .finished)
        #expect(afterPause - EventLoopTransfer.streamQueueLimit <= largestChunk.value, "\(afterPause) bytes queued")
        #expect(recording.body.count > 6 << 20)
        recording.expectWellFormed()
    }

    @Test("a body in memory with a progress handler: counted slice by slice as written, every step before the end")
    func progressOfABodyInMemory() async throws {
        // the fault server reads 64 KiB every 40 ms: the 16 MiB body takes some 10 s to go out
        // (the last several MiB sit in the sockets' buffers sooner), while the handler's steps come
        // as the slices leave; one step with all of it would mean the body was counted only once
        // written whole. The steps run on a serial queue of the test's own, which libdispatch
        // gives a thread even when its shared workers are all busy.
        let size = 16 << 20
        var components = try #require(
            URLComponents(url: FaultServer.baseURL.appendingPathComponent("slow-read"), resolvingAgainstBaseURL: false))
        components.queryItems = [
            URLQueryItem(name: "chunk", value: "65536"), URLQueryItem(name: "interval", value: "0.04"),
            URLQueryItem(name: "tail", value: "0"),
        ]
        var request = URLRequest(url: try #require(components.url))
        request.httpMethod = "POST"
        request.httpBody = Data(repeating: 0x61, count: size)
        let steps = Protected<[TransferProgress]>([])
        let stepsAtCompletion = Protected<Int?>(nil)
        let onEventLoop = Protected(false)
        let released = ReleaseProbe()
        let ended = CompletionProbe<Result<TransportResponse, any Error>>()
        _ = EventLoopTransfer.start(
            request, on: .shared, owner: owner, queue: DispatchQueue(label: "EventLoopTransferTests.progress"),
            progress: released.watch { step in
                if MultiThreadedEventLoopGroup.currentEventLoop != nil { onEventLoop.withLock { $0 = true } }
                steps.withLock { $0.append(step) }
            },
            completion: ended.handler { _ in stepsAtCompletion.withLock { $0 = steps.value.count } })
        let response = try #require(await ended.first(), "no completion within 120 s").get()
        struct Received: Decodable { var received: Int }
        #expect(try JSONDecoder().decode(Received.self, from: response.data).received == size)
        #expect(await released.all(), "the progress handler is still held")
        let all = steps.value
        #expect(!onEventLoop.value, "a step ran on the event loop")
        #expect(stepsAtCompletion.value == all.count, "a step came after the completion")
        #expect(all.allSatisfy { $0.expectedBytesToSend == Int64(size) })
        #expect(all.contains { $0.bytesSent > 0 && $0.bytesSent < Int64(size) }, "the upload came in one step")
        #expect(all.last?.bytesSent == Int64(size))
        #expect(all.last?.bytesReceived == Int64(response.data.count))
        #expect(all.last?.expectedBytesToReceive == Int64(response.data.count))
        #expect(
            zip(all, all.dropFirst()).allSatisfy {
                $0.bytesSent <= $1.bytesSent && $0.bytesReceived <= $1.bytesReceived
            })
    }

    @Test("a cancel ends a stream whose queue is full at once, while its consumer still holds a chunk")
    func cancelWhileTheQueueIsFull() async throws {
        let clock = Protected<UInt64>(0)
        let sweeper = IdleSweeper(now: { [clock] in clock.value }, startsThread: false)
        var request = URLRequest(url: HTTPBin.baseURL.appendingPathComponent("anything"))
        request.httpMethod = "POST"
        request.httpBody = Data(repeating: UInt8(ascii: "a"), count: 6 << 20)
        request.timeoutInterval = 60  // watched by the hand-driven sweeper, which never looks
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let held = Protected(false)
        let recording = StreamRecording()
        let transfer = try #require(
            EventLoopTransfer.stream(
                request, on: .shared, owner: owner, sweeper: sweeper,
                onEvent: recording.handler(hold: {
                    guard case .data = recording.events.last, !held.withLock({ $0 }) else { return }
                    held.withLock { $0 = true }
                    _ = release.wait(timeout: .now() + 60)
                })))
        for _ in 0..<6000 where transfer.queuedStreamBytes <= EventLoopTransfer.streamQueueLimit {
            await pause(0.01)
        }
        #expect(transfer.queuedStreamBytes > EventLoopTransfer.streamQueueLimit, "the queue never filled")
        transfer.cancel()
        // the end unwatches the transfer: it comes while the consumer is still held (a look finds
        // it gone; while it runs, a look finds its consumer busy and times nothing out)
        for look in 0..<6000 {
            // each look due: later than the one before by more than the transfer's timeout
            sweeper.look(at: UInt64(1_000 + 100 * look) * Self.second)
            if sweeper.nextLook == .max { break }
            await pause(0.01)
        }
        #expect(sweeper.nextLook == .max, "the cancelled transfer waited for the consumer")
        release.signal()
        #expect(try #require(await recording.end.first(), "no end within 120 s") == .failed(.cancelled))
        recording.expectWellFormed()
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

    @Test(
        "idle on the event loop: timed out at the sweeper's second look, with .timedOut, once",
        arguments: [false, true])
    func idleTimeout(withProgress: Bool) async throws {
        let released = ReleaseProbe()
        let clock = Protected<UInt64>(0)
        let sweeper = IdleSweeper(now: { [clock] in clock.value }, startsThread: false)
        var request = URLRequest(url: FaultServer.baseURL.appendingPathComponent("never"))
        request.timeoutInterval = 1
        let ended = CompletionProbe<Result<TransportResponse, any Error>>()
        let transfer = try #require(
            EventLoopTransfer.start(
                request, on: .shared, owner: owner, sweeper: sweeper,
                progress: Self.progress(if: withProgress, released),
                completion: ended.handler))
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
        #expect(await released.all(), "the progress handler is still held")
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

    @Test("cancel stops a transfer the server never answers: .cancelled, once", arguments: [false, true])
    func cancel(withProgress: Bool) async throws {
        let released = ReleaseProbe()
        var request = URLRequest(url: FaultServer.baseURL.appendingPathComponent("never"))
        request.timeoutInterval = 0  // no idle timeout: only the cancel can end it
        let ended = CompletionProbe<Result<TransportResponse, any Error>>()
        let transfer = try #require(
            EventLoopTransfer.start(
                request, on: .shared, owner: owner, progress: Self.progress(if: withProgress, released),
                completion: ended.handler))
        transfer.cancel()
        transfer.cancel()
        let result = try #require(await ended.first(), "the cancelled transfer never ended")
        #expect(urlErrorCode(result) == .cancelled, "\(result)")
        if case .failure(let error as URLError) = result {
            #expect(error.userInfo[NSUnderlyingErrorKey] != nil, "the AsyncHTTPClient error is not reachable")
        }
        #expect(await ended.released(), "the completion is still held")
        #expect(await released.all(), "the progress handler is still held")
        #expect(ended.count == 1)
    }
}
