import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

@Suite("Session.download: a body written to disk as it arrives, handed over only when complete")
struct DownloadTests {
    /// Removed, with whatever the test left in it, when the test ends.
    let scratch: ScratchDirectory
    let directory: URL
    let destination: URL

    init() throws {
        scratch = try ScratchDirectory("download")
        directory = scratch.url
        destination = directory.appendingPathComponent("body.bin")
    }

    /// Retries what the default policy retries, at once: a failure it must not retry shows as
    /// more than one attempt.
    static let immediateRetries = RetryPolicy(backoff: .init(baseDelay: 0, jitter: false))

    func session(_ stub: StubResponse, errorBodyDecoder: ErrorBodyDecoder? = nil) -> Session {
        Session(transport: StubTransport { _ in stub }, errorBodyDecoder: errorBodyDecoder)
    }

    @Test("chunks are written in order; the file is the only one left in the directory")
    func chunksInOrder() async throws {
        let session = session(.stream(headers: ["Content-Length": "6"], chunks: ["a", "bc", "def"], interval: 0.01))
        let download = try await StreamedRequest().download(to: destination, using: session)
        #expect(download.fileURL == destination)
        #expect(download.byteCount == 6)
        #expect((download.urlResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "abcdef")
        #expect(try scratch.names() == ["body.bin"])
    }

    @Test("an empty body makes an empty file")
    func emptyBody() async throws {
        let download = try await StreamedRequest().download(to: destination, using: session(.success(status: 200)))
        #expect(download.byteCount == 0)
        #expect(try Data(contentsOf: destination).isEmpty)
    }

    @Test("progress reports each chunk written, with the Content-Length as the total")
    func progressValues() async throws {
        let steps = Protected<[TransferProgress]>([])
        let session = session(.stream(headers: ["Content-Length": "6"], chunks: ["a", "bc", "def"], interval: 0.01))
        _ = try await StreamedRequest().download(to: destination, using: session) { steps.append($0) }
        #expect(steps.value.map(\.bytesReceived) == [0, 1, 3, 6])
        #expect(steps.value.allSatisfy { $0.expectedBytesToReceive == 6 })
        #expect(steps.value.last?.bytesReceived == 6)
    }

    @Test("a 404 leaves no file and carries the error body, decoded")
    func rejectedStatus() async throws {
        let session = session(
            .stream(status: 404, chunks: [#"{"error":"#, #""gone"}"#]),
            errorBodyDecoder: .json(StreamFailure.self))
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session)
        }
        #expect(error?.statusCode == 404)
        #expect(error?.body == Data(#"{"error":"gone"}"#.utf8))
        #expect((error?.errorBody as? StreamFailure) == StreamFailure(error: "gone"))
        #expect(try scratch.names().isEmpty)
    }

    @Test(
        "a 304 (or 204) whose Content-Length is another response's is a status to judge, not a cut-off body",
        arguments: [false, true])
    func notModifiedWithLength(resumable: Bool) async throws {
        let session = Session(
            transport: StubTransport { _ in .stream(status: 304, headers: ["Content-Length": "10"], chunks: [String]())
            },
            retryPolicy: Self.immediateRetries)
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session, resumable: resumable)
        }
        #expect(error?.statusCode == 304, "\(String(describing: error))")
        #expect(error?.context.attempts == 1, "not retried as a lost connection")
        #expect(try scratch.names().isEmpty)
    }

    @Test("a body shorter than its Content-Length fails with incompleteBody and leaves nothing")
    func cutOffBody() async throws {
        let session = session(.stream(headers: ["Content-Length": "1000"], chunks: ["0123456789"]))
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session)
        }
        guard case .transportFailed(let underlying as DownloadError, _) = error,
            case .incompleteBody(received: 10, expected: 1000) = underlying
        else {
            Issue.record("expected incompleteBody, got \(String(describing: error))")
            return
        }
        #expect(try scratch.names().isEmpty)
    }

    @Test("a transport failing mid-body leaves no file")
    func transportFailsMidBody() async throws {
        let transport = ManualTransport(initial: [
            .response(ManualTransport.ok), .data(Data("first".utf8)), .failed(URLError(.networkConnectionLost)),
        ])
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: Session(transport: transport))
        }
        #expect(error?.stage == .transport)
        #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost)
        #expect(try scratch.names().isEmpty)
    }

    @Test(
        "a transport that breaks the order (body bytes or the end before the head) fails with badServerResponse",
        arguments: [false, true],
        [
            [TransportStreamEvent.data(Data("early".utf8)), .response(ManualTransport.ok), .finished],
            [TransportStreamEvent.finished],
        ])
    func eventsBeforeHead(resumable: Bool, events: [TransportStreamEvent]) async throws {
        let transport = ManualTransport(initial: events)
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(
                to: destination, using: Session(transport: transport), resumable: resumable)
        }
        #expect(error?.stage == .transport)
        #expect((error?.underlyingError as? URLError)?.code == .badServerResponse)
        #expect(error?.downloadResumeData == nil)
        #expect(try scratch.names().isEmpty)
    }

    @Test("cancelling the task mid-body stops the transfer and removes the temporary file")
    func cancelMidBody() async throws {
        let transport = ManualTransport(initial: [.response(ManualTransport.ok), .data(Data("first".utf8))])
        let (written, writtenContinuation) = AsyncStream<Void>.makeStream()
        let session = Session(transport: transport)
        let task = Task { [destination] in
            try await StreamedRequest().download(to: destination, using: session) { step in
                if step.bytesReceived > 0 { writtenContinuation.yield() }
            }
        }
        for await _ in written { break }
        #expect(try scratch.names().count == 1)  // the temporary file, hidden
        task.cancel()
        let result = await task.result
        guard case .failure(let error as RequestError) = result, case .cancelled = error else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        #expect(transport.cancels == 1)
        #expect(try scratch.names().isEmpty)
    }

    @Test("an existing destination is untouched on failure and replaced on success")
    func existingDestination() async throws {
        try Data("old".utf8).write(to: destination)
        let failing = session(.stream(status: 500, chunks: ["nope"]))
        await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: failing)
        }
        #expect(try String(contentsOf: destination, encoding: .utf8) == "old")
        let cutOff = session(.stream(headers: ["Content-Length": "99"], chunks: ["new"]))
        await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: cutOff)
        }
        #expect(try String(contentsOf: destination, encoding: .utf8) == "old")
        _ = try await StreamedRequest().download(to: destination, using: session(.stream(chunks: ["new", "er"])))
        #expect(try String(contentsOf: destination, encoding: .utf8) == "newer")
        #expect(try scratch.names() == ["body.bin"])
    }

    @Test("a destination that cannot be replaced (a directory) fails and leaves only that directory")
    func destinationIsDirectory() async throws {
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session(.stream(chunks: ["x"])))
        }
        guard case .transportFailed(DownloadError.cannotMoveToDestination, _) = error else {
            Issue.record("expected cannotMoveToDestination, got \(String(describing: error))")
            return
        }
        #expect(try scratch.names() == ["body.bin"])
    }

    @Test("a missing directory fails with fileWriteFailed")
    func missingDirectory() async throws {
        let nowhere = directory.appendingPathComponent("missing/body.bin")
        let error = await #expect(throws: RequestError.self) {
            let retrying = Session(
                transport: StubTransport { _ in .stream(chunks: ["x"]) }, retryPolicy: Self.immediateRetries)
            return try await StreamedRequest().download(to: nowhere, using: retrying)
        }
        guard case .transportFailed(DownloadError.fileWriteFailed, _) = error else {
            Issue.record("expected fileWriteFailed, got \(String(describing: error))")
            return
        }
        #expect(error?.context.attempts == 1)  // a disk that cannot be written is not a lost connection
    }

    @Test("an interceptor's answer from memory goes to the destination; a missing directory fails with fileWriteFailed")
    func answeredByALink() async throws {
        let canned = ClosureInterceptor { request, _, _ in
            let head = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
            return CallResponse(urlResponse: head, data: Data("canned".utf8))
        }
        let sent = Protected(0)
        let session = Session(
            transport: StubTransport { _ in
                sent.withLock { $0 += 1 }
                return .stream(chunks: ["from the network"])
            }, interceptors: [canned])
        for resumable in [false, true] {
            let download = try await StreamedRequest().download(to: destination, using: session, resumable: resumable)
            #expect(download.byteCount == 6)
            #expect(try String(contentsOf: destination, encoding: .utf8) == "canned")
            #expect(try scratch.names() == ["body.bin"])
        }
        let nowhere = directory.appendingPathComponent("missing/body.bin")
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: nowhere, using: session)
        }
        guard case .transportFailed(DownloadError.fileWriteFailed(let named, _), _) = error else {
            Issue.record("expected fileWriteFailed, got \(String(describing: error))")
            return
        }
        #expect(named == nowhere)
        #expect(sent.value == 0)
    }

    @Test(
        "a disk that fails mid-body: fileWriteFailed, the transfer cancelled, nothing left",
        .enabled(if: FullDisk.isAvailable, "needs /dev/full and /proc (Linux)"))
    func diskFailsMidBody() async throws {
        let head = HTTPURLResponse(
            url: stubBase, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Length": "10"])!
        // a transport without a download of its own: the default writes the stream's chunks
        let transport = ManualTransport(initial: [.response(head), .data(Data("01234".utf8))])
        let call = Task { try await StreamedRequest().download(to: destination, using: Session(transport: transport)) }
        try FullDisk.fill(try #require(await FullDisk.downloadFile(in: directory, holding: 5)))
        transport.push([.data(Data("56789".utf8))])
        let error = await #expect(throws: RequestError.self) { try await call.value }
        guard case .transportFailed(DownloadError.fileWriteFailed, _)? = error else {
            Issue.record("expected fileWriteFailed, got \(String(describing: error))")
            return
        }
        #expect(transport.cancels == 1)
        #expect(error?.downloadResumeData == nil)
        #expect(try scratch.names().isEmpty)
    }

    @Test("a 503 is retried through the RetryPolicy; the second attempt's body is the file")
    func retried() async throws {
        let calls = Protected(0)
        let transport = StubTransport { _ in
            calls.withLock { $0 += 1 }
            return calls.value == 1
                ? .stream(status: 503, chunks: ["busy"]) : .stream(chunks: ["second"])
        }
        let session = Session(transport: transport, retryPolicy: RetryPolicy(maxAttempts: 2)).timed(by: WaitRecorder())
        let download = try await StreamedRequest().download(to: destination, using: session)
        #expect(calls.value == 2)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "second")
        #expect(try scratch.names() == ["body.bin"])
        _ = download
    }

    @Test("interceptors adapt the request and inspect the response before the file is handed over")
    func interceptors() async throws {
        let interceptor = StreamInterceptor()
        let seen = Protected<String?>(nil)
        let transport = StubTransport { request in
            seen.withLock { $0 = request.value(forHTTPHeaderField: "X-Adapted") }
            return .stream(chunks: ["abc"])
        }
        _ = try await StreamedRequest().download(
            to: destination, using: Session(transport: transport, interceptors: [interceptor]))
        #expect(seen.value == "yes")
        #expect(interceptor.inspected.value == ["200 0"])
    }

    @Test("the completion form: called once with the file; cancel mid-body: called once with cancelled, no file")
    func completionForm() async throws {
        let session = session(.stream(chunks: ["a", "b"], interval: 0.01))
        let result = await withCheckedContinuation { continuation in
            StreamedRequest().download(to: destination, using: session) { continuation.resume(returning: $0) }
        }
        #expect(try result.get().byteCount == 2)

        let other = directory.appendingPathComponent("other.bin")
        let transport = ManualTransport(initial: [.response(ManualTransport.ok), .data(Data("first".utf8))])
        let probe = CompletionProbe<Result<DownloadResponse, RequestError>>()
        let (written, writtenContinuation) = AsyncStream<Void>.makeStream()
        let handle = StreamedRequest().download(
            to: other, using: Session(transport: transport),
            progress: { if $0.bytesReceived > 0 { writtenContinuation.yield() } },
            completion: probe.handler
        )
        for await _ in written { break }
        handle.cancel()
        handle.cancel()
        let outcome = await probe.first()
        guard case .failure(.cancelled) = outcome else {
            Issue.record("expected cancelled, got \(String(describing: outcome))")
            return
        }
        #expect(await probe.released(), "the completion is still held after the cancellation")
        #expect(probe.count == 1)
        #expect(try scratch.names() == ["body.bin"])
    }

    @Test("a download that fails finishes its handle, as one that succeeds does")
    func failedDownloadFinishesItsHandle() async throws {
        let probe = CompletionProbe<Result<DownloadResponse, RequestError>>()
        let handle = StreamedRequest().download(
            to: destination, using: session(.stream(status: 404, chunks: ["gone"])), completion: probe.handler)
        #expect(try #require(await probe.first()).errorValue?.statusCode == 404)
        #expect(handle.isFinished)
    }

    @Test("cancel racing the last chunk: the completion runs once; a file only with success, no temporary file left")
    func cancelRacesLastChunk() async throws {
        let session = session(.stream(chunks: ["a", "b", "c"]))
        for round in 0..<100 {
            let destination = directory.appendingPathComponent("race-\(round).bin")
            let probe = CompletionProbe<Result<DownloadResponse, RequestError>>()
            let handle = StreamedRequest().download(to: destination, using: session, completion: probe.handler)
            if round % 2 == 1 { await Task.yield() }
            handle.cancel()
            let outcome = await probe.first()
            switch outcome {
            case .success: #expect(try String(contentsOf: destination, encoding: .utf8) == "abc")
            case .failure(.cancelled): #expect(!FileManager.default.fileExists(atPath: destination.path))
            default: Issue.record("unexpected \(String(describing: outcome))")
            }
            #expect(await probe.released(), "the completion is still held (round \(round))")
            #expect(probe.count == 1)
        }
        #expect(try scratch.names().allSatisfy { !$0.hasPrefix(".") })
    }
}
