import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

/// A transport that implements only `send`: a canned body, as `URLSession.shared` or a
/// hand-written transport would answer.
private struct SendOnlyTransport: Transport {
    var status = 200
    var body = Data("downloaded whole".utf8)

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let response = HTTPURLResponse(
            url: request.url!, statusCode: status, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Length": String(body.count)])!
        DispatchQueue.global().async { [body] in
            completion(.success(TransportResponse(data: body, urlResponse: response)))
        }
        return NoTask()
    }
}

private struct NoTask: TransportTask {
    func cancel() {}
}

/// A transport with its own `download`: each call answers from `answer`, which gets the request
/// and the file to write, and returns what to complete with. It counts the calls of `download`
/// and of `stream`. A cancellation runs `onCancel` before it returns, then completes with
/// `URLError(.cancelled)` 50 ms later. With `ownFile`, it keeps a file of its own there while
/// the transfer runs (as corelibs does in the temporary directory) and removes it just before
/// it completes.
private final class FileWritingTransport: Transport {
    typealias Answer = @Sendable (URLRequest, URL) -> Result<URLResponse, any Error>

    private let answer: Answer
    private let holdUntilCancelled: Bool
    private let ownFile: URL?
    private let onCancel: @Sendable (URL) -> Void
    let calls = Protected((downloads: 0, streams: 0))

    init(
        holdUntilCancelled: Bool = false, ownFile: URL? = nil,
        onCancel: @escaping @Sendable (URL) -> Void = { _ in }, answer: @escaping Answer
    ) {
        self.answer = answer
        self.holdUntilCancelled = holdUntilCancelled
        self.ownFile = ownFile
        self.onCancel = onCancel
    }

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        StubTransport { _ in .success(status: 200, body: "sent") }.send(
            request, progress: progress, completion: completion)
    }

    func stream(
        _ request: URLRequest,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> any TransportTask {
        calls.withLock { $0.streams += 1 }
        return StubTransport { _ in .stream(headers: ["Content-Length": "8"], chunks: ["streamed"]) }
            .stream(request, onEvent: onEvent)
    }

    func download(
        _ request: URLRequest,
        to fileURL: URL,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<URLResponse, any Error>) -> Void
    ) -> any TransportTask {
        calls.withLock { $0.downloads += 1 }
        if let ownFile { try? Data("part".utf8).write(to: ownFile) }
        let task = HeldTask(fileURL: fileURL, ownFile: ownFile, onCancel: onCancel, completion: completion)
        if !holdUntilCancelled {
            DispatchQueue.global().async { [answer] in task.complete(answer(request, fileURL)) }
        }
        return task
    }
}

private final class HeldTask: TransportTask {
    let fileURL: URL
    let ownFile: URL?
    let onCancel: @Sendable (URL) -> Void
    private let completion: Protected<(@Sendable (Result<URLResponse, any Error>) -> Void)?>

    init(
        fileURL: URL, ownFile: URL?, onCancel: @escaping @Sendable (URL) -> Void,
        completion: @escaping @Sendable (Result<URLResponse, any Error>) -> Void
    ) {
        self.fileURL = fileURL
        self.ownFile = ownFile
        self.onCancel = onCancel
        self.completion = Protected(completion)
    }

    func complete(_ result: Result<URLResponse, any Error>) {
        let completion = self.completion.withLock { completion in
            defer { completion = nil }
            return completion
        }
        if completion != nil, let ownFile { try? FileManager.default.removeItem(at: ownFile) }
        completion?(result)
    }

    func cancel() {
        onCancel(fileURL)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { [self] in
            complete(.failure(URLError(.cancelled)))
        }
    }
}

/// A transport whose stream the test drives by hand, chunk by chunk; its task's cancellation
/// is only counted, so that the test can keep pushing chunks after it.
private final class PushTransport: Transport {
    let onEvent = Protected<(@Sendable (TransportStreamEvent) -> Void)?>(nil)
    let cancels = Protected(0)

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        StubTransport { _ in .success(status: 200, body: "sent") }.send(
            request, progress: progress, completion: completion)
    }

    func stream(
        _ request: URLRequest,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> any TransportTask {
        self.onEvent.withLock { $0 = onEvent }
        return CountedTask(cancels: cancels)
    }

    func push(_ event: TransportStreamEvent) {
        onEvent.value?(event)
    }
}

private struct CountedTask: TransportTask {
    let cancels: Protected<Int>

    func cancel() { cancels.withLock { $0 += 1 } }
}

/// Writes `body` to `file` and answers with `status` and `headers`.
private func written(
    _ body: String, to file: URL, for request: URLRequest, status: Int = 200, headers: [String: String]? = nil
) -> Result<URLResponse, any Error> {
    do {
        try Data(body.utf8).write(to: file)
    } catch {
        return .failure(error)
    }
    let response = HTTPURLResponse(
        url: request.url!, statusCode: status, httpVersion: "HTTP/1.1",
        headerFields: headers ?? ["Content-Length": String(body.utf8.count)])!
    return .success(response)
}

@Suite("Transport.download: the seam a download goes through, its default built on stream")
struct TransportDownloadTests {
    /// Removed, with whatever the test left in it, when the test ends.
    let scratch: ScratchDirectory
    let directory: URL
    let destination: URL

    init() throws {
        scratch = try ScratchDirectory("download")
        directory = scratch.url
        destination = directory.appendingPathComponent("body.bin")
    }

    @Test("a transport that implements only send still downloads, through the default download")
    func sendOnlyTransport() async throws {
        let steps = Protected<[TransferProgress]>([])
        let download = try await StreamedRequest().download(
            to: destination, using: Session(transport: SendOnlyTransport())
        ) { steps.append($0) }
        #expect(download.byteCount == 16)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "downloaded whole")
        #expect(steps.value.map(\.bytesReceived) == [0, 16])
        #expect(try scratch.names() == ["body.bin"])
    }

    @Test("the default download writes each chunk before the callback returns, reports it, and completes once")
    func defaultWritesInCallback() async throws {
        let transport = ManualTransport(initial: [.response(ManualTransport.ok), .data(Data("first".utf8))])
        let file = directory.appendingPathComponent("direct.download")
        let steps = Protected<[Int64]>([])
        let calls = Protected(0)
        let (ended, endedContinuation) = AsyncStream<Result<URLResponse, any Error>>.makeStream()
        _ = transport.download(URLRequest(url: stubBase), to: file, progress: { steps.append($0.bytesReceived) }) {
            calls.withLock { $0 += 1 }
            endedContinuation.yield($0)
        }
        transport.push([.data(Data("second".utf8))])
        // written when the callback returned: the file holds both chunks before the end
        #expect(try String(contentsOf: file, encoding: .utf8) == "firstsecond")
        transport.push([.finished, .failed(URLError(.cancelled))])
        var result: Result<URLResponse, any Error>?
        for await outcome in ended {
            result = outcome
            break
        }
        #expect((try result?.get() as? HTTPURLResponse)?.statusCode == 200)
        #expect(steps.value == [0, 5, 11])
        #expect(calls.value == 1)
    }

    @Test("the default download: a file that cannot be written cancels the transfer and fails with fileWriteFailed")
    func defaultWriteFailure() async throws {
        let transport = ManualTransport(initial: [.response(ManualTransport.ok), .data(Data("first".utf8))])
        let file = directory.appendingPathComponent("missing/direct.download")
        let result = await withCheckedContinuation { continuation in
            _ = transport.download(URLRequest(url: stubBase), to: file, progress: { _ in }) {
                continuation.resume(returning: $0)
            }
        }
        guard case .failure(DownloadError.fileWriteFailed(let url, _)) = result else {
            Issue.record("expected fileWriteFailed, got \(result)")
            return
        }
        #expect(url == file)
        #expect(transport.cancels == 1)
    }

    @Test("the default download's task: once cancel returns nothing more is written; the stream's end completes once")
    func defaultCancelStopsWrites() async throws {
        let transport = PushTransport()
        let file = directory.appendingPathComponent("direct.download")
        let results = Protected<[Result<URLResponse, any Error>]>([])
        let task = transport.download(URLRequest(url: stubBase), to: file, progress: { _ in }) { result in
            results.withLock { $0.append(result) }
        }
        transport.push(.response(ManualTransport.ok))
        transport.push(.data(Data("first".utf8)))
        task.cancel()
        #expect(transport.cancels.value == 1)
        transport.push(.data(Data("late".utf8)))
        #expect(try String(contentsOf: file, encoding: .utf8) == "first")
        transport.push(.finished)
        transport.push(.failed(URLError(.cancelled)))
        #expect(results.value.count == 1)
        guard case .failure(let error as URLError) = results.value.first else {
            Issue.record("expected URLError(.cancelled), got \(results.value)")
            return
        }
        #expect(error.code == .cancelled)
    }

    @Test("a transport failing before the response completes with its error, and writes nothing")
    func defaultFailureBeforeResponse() async throws {
        let file = directory.appendingPathComponent("direct.download")
        let stub = StubTransport { _ in .failure(URLError(.cannotConnectToHost)) }
        let result = await withCheckedContinuation { continuation in
            _ = stub.download(URLRequest(url: stubBase), to: file, progress: { _ in }) {
                continuation.resume(returning: $0)
            }
        }
        guard case .failure(let error as URLError) = result else {
            Issue.record("expected a URLError, got \(result)")
            return
        }
        #expect(error.code == .cannotConnectToHost)
        #expect(try scratch.names().isEmpty)
    }

    @Test("a download goes through the transport's own download; a resumable one through its stream")
    func choosesTheSeam() async throws {
        let transport = FileWritingTransport { request, file in written("downloaded", to: file, for: request) }
        let session = Session(transport: transport)
        let plain = try await StreamedRequest().download(to: destination, using: session)
        #expect(try String(contentsOf: plain.fileURL, encoding: .utf8) == "downloaded")
        #expect(transport.calls.value == (downloads: 1, streams: 0))

        let resumable = try await StreamedRequest().download(to: destination, using: session, resumable: true)
        #expect(try String(contentsOf: resumable.fileURL, encoding: .utf8) == "streamed")
        #expect(transport.calls.value == (downloads: 1, streams: 1))
        #expect(try scratch.names() == ["body.bin"])
    }

    @Test("the temporary file is a hidden file next to the destination, gone once it is handed over")
    func temporaryFileNextToDestination() async throws {
        let seen = Protected<URL?>(nil)
        let transport = FileWritingTransport { request, file in
            seen.withLock { $0 = file }
            return written("x", to: file, for: request)
        }
        _ = try await StreamedRequest().download(to: destination, using: Session(transport: transport))
        let file = try #require(seen.value)
        #expect(file.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL)
        #expect(file.lastPathComponent.hasPrefix(".body.bin."))
        #expect(file.lastPathComponent.hasSuffix(".download"))
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test(
        "a rejected status: the chain sees the head, the error body is read from the file (its first 1 MiB), the file removed"
    )
    func rejectedBodyFromFile() async throws {
        let interceptor = StreamInterceptor()
        let big = String(repeating: "e", count: (1 << 20) + 10)
        let transport = FileWritingTransport { request, file in
            written(
                request.url!.path.hasSuffix("big") ? big : #"{"error":"gone"}"#, to: file, for: request, status: 404)
        }
        let session = Session(
            transport: transport, interceptors: [interceptor], errorBodyDecoder: .json(StreamFailure.self))
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session)
        }
        #expect(error?.statusCode == 404)
        #expect((error?.errorBody as? StreamFailure) == StreamFailure(error: "gone"))
        // the chain sees the head; the body stays in the file until the status check reads it
        #expect(interceptor.inspected.value == ["404 0"])

        let large = await #expect(throws: RequestError.self) {
            try await StreamedRequest(path: "big").download(to: destination, using: session)
        }
        #expect(large?.body?.count == 1 << 20)
        #expect(try scratch.names().isEmpty)
    }

    @Test("a file shorter than its Content-Length fails with incompleteBody; a missing file with fileWriteFailed")
    func checksTheFile() async throws {
        let short = FileWritingTransport { request, file in
            written("0123456789", to: file, for: request, headers: ["Content-Length": "1000"])
        }
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: Session(transport: short))
        }
        guard case .transportFailed(DownloadError.incompleteBody(received: 10, expected: 1000), _) = error else {
            Issue.record("expected incompleteBody, got \(String(describing: error))")
            return
        }
        let gzip = FileWritingTransport { request, file in
            written("decoded", to: file, for: request, headers: ["Content-Length": "3", "Content-Encoding": "gzip"])
        }
        let decoded = try await StreamedRequest().download(to: destination, using: Session(transport: gzip))
        #expect(decoded.byteCount == 7)

        let missing = FileWritingTransport { request, file in
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
            return .success(response)
        }
        let missingError = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: Session(transport: missing))
        }
        guard case .transportFailed(DownloadError.fileWriteFailed, _) = missingError else {
            Issue.record("expected fileWriteFailed, got \(String(describing: missingError))")
            return
        }
        #expect(try scratch.names() == ["body.bin"])
    }

    @Test("a transport error and a partial file it left: the error, the file removed")
    func transportErrorRemovesPartialFile() async throws {
        let transport = FileWritingTransport { request, file in
            _ = written("part", to: file, for: request)
            return .failure(URLError(.networkConnectionLost))
        }
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: Session(transport: transport))
        }
        #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost)
        #expect(try scratch.names().isEmpty)
    }

    @Test(
        "cancelled: reported once the transport has completed, so nothing it or APIKit wrote is left anywhere",
        .timeLimit(.minutes(1)))
    func cancelWaitsForTheTransport() async throws {
        let ownScratch = try ScratchDirectory("download")
        defer { ownScratch.remove() }
        let own = ownScratch.url
        let ownFile = own.appendingPathComponent("transport.tmp")
        let transport = FileWritingTransport(
            holdUntilCancelled: true, ownFile: ownFile,
            onCancel: { file in try? Data("late".utf8).write(to: file) },
            answer: { _, _ in .failure(URLError(.unknown)) })
        let calls = Protected(0)
        let leftWhenCompleted = Protected<[String]>([])
        let (ended, endedContinuation) = AsyncStream<Result<DownloadResponse, RequestError>>.makeStream()
        let handle = StreamedRequest().download(to: destination, using: Session(transport: transport)) {
            [scratch] result in
            // what exists when the completion runs, not some time later
            let left = ((try? ownScratch.names()) ?? ["?"]) + ((try? scratch.names()) ?? ["?"])
            leftWhenCompleted.withLock { $0 = left }
            calls.withLock { $0 += 1 }
            endedContinuation.yield(result)
            endedContinuation.finish()
        }
        while transport.calls.value.downloads == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(FileManager.default.fileExists(atPath: ownFile.path))
        handle.cancel()
        var outcomes: [Result<DownloadResponse, RequestError>] = []
        for await result in ended { outcomes.append(result) }
        guard case .failure(.cancelled) = outcomes.first else {
            Issue.record("expected cancelled, got \(outcomes)")
            return
        }
        #expect(outcomes.count == 1)
        #expect(calls.value == 1)
        #expect(leftWhenCompleted.value == [])
    }

    @Test("a 503 through the transport's download is retried; the second attempt's file is handed over")
    func retried() async throws {
        let attempts = Protected(0)
        let transport = FileWritingTransport { request, file in
            let attempt = attempts.withLock { attempt -> Int in
                attempt += 1
                return attempt
            }
            return attempt == 1
                ? written("busy", to: file, for: request, status: 503) : written("second", to: file, for: request)
        }
        let session = Session(transport: transport, retryPolicy: RetryPolicy(maxAttempts: 2)).timed(by: WaitRecorder())
        let download = try await StreamedRequest().download(to: destination, using: session)
        #expect(try String(contentsOf: download.fileURL, encoding: .utf8) == "second")
        #expect(attempts.value == 2)
        #expect(try scratch.names() == ["body.bin"])
    }
}
