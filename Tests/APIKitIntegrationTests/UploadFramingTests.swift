@_spi(Testing) import APIKit
import APIKitTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ScratchDirectory {
    /// The names of the upload spool files in the directory.
    var spoolFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter {
            $0.hasPrefix("APIKit-upload-")
        }
    }
}

/// A multipart upload with one file, to any server.
struct FilePartUpload: Request, RequestConfiguration {
    typealias Response = Data
    var base: URL
    var path: String
    var method: HTTPMethod { .post }
    var parser: RawDataParser { RawDataParser() }
    var configuration: Self { self }
    @Part("caption") var caption = "upload"
    @FilePart("file") var file: MultipartFile? = nil
}

/// A file as the whole body, to any server.
struct WholeFileUpload: Request, RequestConfiguration {
    typealias Response = Data
    var base: URL
    var path: String
    var method: HTTPMethod { .put }
    var parser: RawDataParser { RawDataParser() }
    var configuration: Self { self }
    @FileBody("application/octet-stream") var file: URL? = nil
}

/// Sends `urlRequest` through `transport` and waits for its completion, cancelling it after
/// `cancelAfter` seconds when given. Fails the test when the completion runs more than once
/// (counted once the transport has let go of it), or is never let go of.
func send(
    _ urlRequest: URLRequest,
    through transport: any Transport,
    cancelAfter: Double? = nil,
    timeout: TimeInterval = 60
) async throws -> Result<TransportResponse, any Error> {
    let probe = CompletionProbe<Result<TransportResponse, any Error>>()
    // a transport's task may hold the completion (a spooled upload does): the transport holds
    // the task for as long as it needs it, and the test lets go of it once it has the result
    var task: (any TransportTask)? = transport.send(urlRequest, progress: nil, completion: probe.handler)
    if let cancelAfter {
        if cancelAfter > 0 { await pause(cancelAfter) }
        task?.cancel()
    }
    guard let result = await probe.first(timeout: timeout) else { throw CompletionTimedOut(seconds: timeout) }
    task = nil
    #expect(await probe.released(), "the transport still holds the completion")
    #expect(probe.count == 1, "the transport completed \(probe.count) times")
    return result
}

@Suite(
    "Uploads with Content-Length: the spool file's every way out",
    .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason)
)
struct UploadFramingTests {
    @Test("a multipart upload from disk goes out with Content-Length, no chunking, and leaves no spool file")
    func multipartFromDisk() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let contents = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let file = try scratch.file("upload.bin", contents: contents)
        let transport = TestTransport.make(spoolDirectory: scratch.url)
        let request = try FilePartUpload(base: HTTPBin.baseURL, path: "post", file: .file(file)).makeURLRequest()
        let length = try #require(request.requestBody?.length)

        let response = try await send(request, through: transport).get()
        let echo = try JSONDecoder().decode(MultipartEcho.self, from: response.data)
        #expect(echo.header("Content-Length") == String(length))
        #expect(echo.header("Transfer-Encoding") == nil)
        #expect(echo.fileBytes("file") == contents)
        #expect(echo.form["caption"] == .one("upload"))
        #expect(scratch.spoolFiles.isEmpty)
    }

    @Test(
        "URLSession.shared sends a multipart upload from disk with Content-Length too",
        .urlSessionOnly("URLSession.shared as a transport"))
    func sharedSession() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let contents = Data("shared session upload".utf8)
        let file = try scratch.file("note.txt", contents: contents)
        let request = try FilePartUpload(base: HTTPBin.baseURL, path: "post", file: .file(file)).makeURLRequest()
        let response = try await send(request, through: URLSession.shared.asTransport).get()
        let echo = try JSONDecoder().decode(MultipartEcho.self, from: response.data)
        #expect(echo.header("Content-Length") == String(try #require(request.requestBody?.length)))
        #expect(echo.header("Transfer-Encoding") == nil)
        #expect(echo.fileBytes("file") == contents)
    }

    @Test("a file as the whole body goes out with its size as Content-Length and its content type")
    func wholeFile() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let text = String(repeating: "APIKit whole-file body\n", count: 5000)
        let file = try scratch.file("body.txt", contents: Data(text.utf8))
        let response = try await WholeFileUpload(base: HTTPBin.baseURL, path: "anything", file: file).response(
            using: Session(transport: TestTransport.make(spoolDirectory: scratch.url)))
        let echo = try JSONDecoder().decode(Echo<NoJSONBody>.self, from: response)
        #expect(echo.method == "PUT")
        #expect(echo.data == text)
        #expect(echo.header("Content-Length") == String(text.utf8.count))
        #expect(echo.header("Transfer-Encoding") == nil)
        #expect(echo.header("Content-Type") == "application/octet-stream")
        #expect(scratch.spoolFiles.isEmpty, "a whole file is uploaded as it is, never spooled")
    }

    /// Cancelled as soon as `send` returns, while 64 MiB are written to the spool file. The
    /// server reads the body and never answers, so that a test thread held up until the spool
    /// is written and sent still sees its cancellation reported, never a success.
    @Test("cancelled while the spool file is written: cancelled once, no spool file left")
    func cancelWhileWriting() async throws {
        let fault = try #require(FaultServer.url, FaultServer.skipReason)
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("big.bin", size: 64 << 20)
        let transport = TestTransport.make(spoolDirectory: scratch.url)
        let request = try FilePartUpload(base: fault, path: "swallow", file: .file(file)).makeURLRequest()
        let result = try await send(request, through: transport, cancelAfter: 0)
        #expect((result.failure as? URLError)?.code == .cancelled)
        #expect(scratch.spoolFiles.isEmpty)
    }

    @Test(
        "cancelled while sending to a server that never answers: cancelled once, no spool file left",
        .urlSessionOnly("URLSessionTransport's spool file, removed when cancel() returns"))
    func cancelWhileSending() async throws {
        let fault = try #require(FaultServer.url, FaultServer.skipReason)
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("big.bin", size: 16 << 20)
        let transport = TestTransport.make(spoolDirectory: scratch.url)
        let request = try FilePartUpload(base: fault, path: "never", file: .file(file)).makeURLRequest()
        let probe = CompletionProbe<Result<TransportResponse, any Error>>()
        // The transport's first report of body bytes sent: the spool file is written whole and
        // the upload from it is on the wire (the server never reads the rest).
        let sending = CompletionProbe<Int64>()
        let progress: @Sendable (TransferProgress) -> Void = { step in
            if step.bytesSent > 0 { sending.record(step.bytesSent) }
        }
        // the task (a spooled upload) holds the completion; the test lets go of it at the end
        var task: (any TransportTask)? = transport.send(request, progress: progress, completion: probe.handler)
        try #require(await sending.first() != nil, "the upload never reported a byte sent")
        #expect(scratch.spoolFiles.count == 1, "the upload was sent from its spool file")
        task?.cancel()
        #expect(scratch.spoolFiles.isEmpty, "the spool file goes when cancel() returns, not when the transfer ends")
        let result = await probe.first()
        #expect((result?.failure as? URLError)?.code == .cancelled)
        task = nil
        #expect(await probe.released(), "the transport still holds the completion")
        #expect(probe.count == 1)
        #expect(scratch.spoolFiles.isEmpty)
    }

    /// corelibs Foundation crashes (a `try!` on a libcurl error) when an upload from a file is
    /// cancelled while libcurl waits for the file's next bytes; a plain `uploadTask(fromFile:)`
    /// cancelled at these delays crashed within 300 tries here. The test process surviving is
    /// the first assertion.
    ///
    /// The delays only spread the cancellations over the transfer; no verdict depends on where
    /// one lands. Against httpbin a cancellation races the answer, and either outcome is right.
    /// Every third round goes to the fault server's `/swallow`, which reads the whole body and
    /// never answers: there the cancellation comes before the end wherever it lands, during the
    /// spool, the upload or the wait for the answer, and must be reported as one.
    @Test(
        "cancel racing the upload and its end, multipart (spool) and whole file: no crash, each completes once, no spool file left"
    )
    func cancelRacingTheEnd() async throws {
        let fault = try #require(FaultServer.url, FaultServer.skipReason)
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("race.bin", size: 256 << 10)
        let transports = TestTransport.all(spoolDirectory: scratch.url).map(\.transport)
        var generator = SeededGenerator(seed: 0x5EED_0012)
        var outcomes: [String: Int] = [:]
        let rounds = 60
        for round in 0..<rounds {
            let unanswered = round % 3 == 2
            let base = unanswered ? fault : HTTPBin.baseURL
            let request =
                round.isMultiple(of: 2)
                ? try FilePartUpload(base: base, path: unanswered ? "swallow" : "post", file: .file(file))
                    .makeURLRequest()
                : try WholeFileUpload(base: base, path: unanswered ? "swallow" : "anything", file: file)
                    .makeURLRequest()
            let delay = Double(Int.random(in: 0...30, using: &generator)) / 1000
            // every fourth round through URLSession.shared (in the root package)
            let result = try await send(
                request, through: round % 4 == 1 ? transports[transports.count - 1] : transports[0], cancelAfter: delay)
            switch result {
            case .success where unanswered:
                Issue.record("round \(round): a server that never answers answered")
            case .success: outcomes["success", default: 0] += 1
            case .failure(let error as URLError) where error.code == .cancelled:
                outcomes[unanswered ? "cancelled before the end" : "cancelled", default: 0] += 1
            case .failure(let error): Issue.record("round \(round): unexpected failure: \(error)")
            }
            #expect(scratch.spoolFiles.isEmpty)
        }
        #expect(outcomes.values.reduce(0, +) == rounds)
        #expect(
            outcomes["cancelled before the end", default: 0] == rounds / 3,
            "a cancellation that lands while the body is sent, or before the answer, is reported as one")
    }

    @Test("a file that shrinks after the build fails the spool with fileChanged; no spool file left")
    func shrinkingFile() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("shrinks.bin", size: 1 << 20)
        let transport = TestTransport.make(spoolDirectory: scratch.url)
        let request = try FilePartUpload(base: HTTPBin.baseURL, path: "post", file: .file(file)).makeURLRequest()
        try Data("short".utf8).write(to: file)
        let result = try await send(request, through: transport)
        #if canImport(FoundationNetworking)
            #expect(result.failure as? RequestBodyError == .fileChanged(path: file.path, expectedSize: 1 << 20))
        #else
            #expect(result.failure != nil)
        #endif
        #expect(scratch.spoolFiles.isEmpty)
    }

    @Test("a refused connection fails the upload; no spool file left")
    func refused() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("a.bin", size: 1 << 20)
        let transport = TestTransport.make(spoolDirectory: scratch.url)
        let request = try FilePartUpload(base: HTTPBin.refusedURL(), path: "post", file: .file(file)).makeURLRequest()
        let result = try await send(request, through: transport)
        #expect((result.failure as? URLError)?.code == .cannotConnectToHost)
        #expect(scratch.spoolFiles.isEmpty)
    }

    /// Forwards to a transport and keeps every response it answered.
    struct RecordingTransport: Transport {
        let base: any Transport
        let responses: Protected<[Data]>

        func send(
            _ request: URLRequest,
            progress: (@Sendable (TransferProgress) -> Void)?,
            completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
        ) -> any TransportTask {
            base.send(request, progress: progress) { result in
                if case .success(let response) = result { responses.withLock { $0.append(response.data) } }
                completion(result)
            }
        }
    }

    @Test("each retry reads the file again: every attempt sends it whole, a multipart body and a whole file")
    func retryRereadsTheFile() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let text = String(repeating: "retry me\n", count: 20_000)
        let file = try scratch.file("retry.txt", contents: Data(text.utf8))
        let responses = Protected<[Data]>([])
        var session = Session(
            transport: RecordingTransport(base: TestTransport.make(spoolDirectory: scratch.url), responses: responses))
        // Retry every answer, a success too, until the third.
        session.retryPolicy = RetryPolicy(
            maxAttempts: 3, retryableMethods: [.post, .put], retryableStatusCodes: [200],
            backoff: .init(baseDelay: 0.01, multiplier: 1, maxDelay: 0.01))
        _ = try await WholeFileUpload(base: HTTPBin.baseURL, path: "anything", file: file).response(using: session)
        _ = try await FilePartUpload(base: HTTPBin.baseURL, path: "post", file: .file(file)).response(using: session)
        let answered = responses.withLock { $0 }
        #expect(answered.count == 6)
        for data in answered.prefix(3) {
            #expect(try JSONDecoder().decode(Echo<NoJSONBody>.self, from: data).data == text)
        }
        for data in answered.suffix(3) {
            #expect(try JSONDecoder().decode(MultipartEcho.self, from: data).fileBytes("file") == Data(text.utf8))
        }
        #expect(scratch.spoolFiles.isEmpty)
    }

    @Test("a whole-file upload reports progress up to its length")
    func progress() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("progress.bin", size: 2 << 20)
        let steps = Protected<[TransferProgress]>([])
        let session = Session(transport: TestTransport.make(spoolDirectory: scratch.url))
        _ = try await WholeFileUpload(base: HTTPBin.baseURL, path: "anything", file: file).response(
            using: session,
            progress: { step in steps.withLock { $0.append(step) } })
        let sent = steps.withLock { $0 }.filter { $0.bytesSent > 0 }
        #expect(sent.last?.bytesSent == 2 << 20)
        #expect(sent.allSatisfy { $0.expectedBytesToSend == 2 << 20 })
        #expect(zip(sent, sent.dropFirst()).allSatisfy { $0.bytesSent <= $1.bytesSent })
    }
}

@Suite("@FileBody uploads over HTTP", .enabled(if: FaultServer.url != nil, FaultServer.skipReason))
struct FileBodyCancellationTests {
    @Test("a whole-file upload to a server that never answers is cancelled once, through perform")
    func cancelWholeFile() async throws {
        let fault = try #require(FaultServer.url)
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("big.bin", size: 8 << 20)
        let session = Session(transport: TestTransport.make(spoolDirectory: scratch.url))
        let probe = CompletionProbe<Result<Data, RequestError>>()
        // cancelled once the transport reports body bytes sent: the upload is on the wire
        let sending = CompletionProbe<Int64>()
        let progress: @Sendable (TransferProgress) -> Void = { step in
            if step.bytesSent > 0 { sending.record(step.bytesSent) }
        }
        let handle = WholeFileUpload(base: fault, path: "never", file: file).perform(
            using: session, progress: progress, completion: probe.handler)
        try #require(await sending.first() != nil, "the upload never reported a byte sent")
        handle.cancel()
        let result = await probe.first()
        guard case .failure(.cancelled) = result else {
            Issue.record("expected .cancelled, got \(String(describing: result))")
            return
        }
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
        #expect(scratch.spoolFiles.isEmpty)
        #expect(FileManager.default.fileExists(atPath: file.path), "the user's file is never removed")
    }
}
