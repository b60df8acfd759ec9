import APIKit
import APIKitTestSupport
import Foundation
import Testing

/// `GET /download?size=N` on the FastAPI server: N bytes, byte I = I % 251, with Content-Length.
struct FastAPIDownloadRequest: Request, RequestConfiguration {
    @Query("size") var size: Int? = nil
    var base = FastAPIServer.url ?? URL(string: "http://127.0.0.1:9")!
    var path: String { "download" }
    var method: HTTPMethod { .get }
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    var options: RequestOptions { RequestOptions(timeout: 30) }
}

/// Whether the file at `url` holds `size` bytes of the server's pattern (byte I = I % 251),
/// read 1 MiB at a time.
private func holdsPattern(_ url: URL, size: Int) throws -> Bool {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var offset = 0
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
        for (index, byte) in chunk.enumerated() where byte != UInt8((offset + index) % 251) {
            return false
        }
        offset += chunk.count
    }
    return offset == size
}

@Suite(
    "Downloads to disk against a real server (FastAPI on uvicorn)",
    .enabled(if: FastAPIServer.url != nil, FastAPIServer.skipReason))
struct RealServerDownloadTests {
    @Test("/download: the pattern arrives whole, through each transport under test")
    func content() async throws {
        for (name, transport) in TestTransport.all() {
            let scratch = try ScratchDirectory("download")
            defer { scratch.remove() }
            let directory = scratch.url
            let destination = directory.appendingPathComponent("pattern.bin")
            let size = 300_000
            let download = try await FastAPIDownloadRequest(size: size).download(
                to: destination, using: Session(transport: transport))
            #expect(download.byteCount == Int64(size))
            #expect(try holdsPattern(destination, size: size), "\(name)")
            #expect(try scratch.names() == ["pattern.bin"])
        }
    }

    @Test("a 64 MB download: written as it arrives, progress up to the Content-Length, content checked")
    func large() async throws {
        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let directory = scratch.url
        let destination = directory.appendingPathComponent("large.bin")
        let size = 64 << 20
        let steps = Protected((count: 0, last: TransferProgress()))
        let download = try await FastAPIDownloadRequest(size: size).download(
            to: destination, using: Session(transport: TestTransport.make())
        ) { step in
            steps.withLock { $0 = ($0.count + 1, step) }
        }
        #expect(download.byteCount == Int64(size))
        #expect(steps.value.count > 2)
        #expect(steps.value.last.bytesReceived == Int64(size))
        #expect(steps.value.last.expectedBytesToReceive == Int64(size))
        #expect(try holdsPattern(destination, size: size))
        #expect(try scratch.names() == ["large.bin"])
    }

    @Test("a resumable 32 MB download cancelled after 1 MiB, then resumed: the whole file, byte for byte")
    func cancelThenResume() async throws {
        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let directory = scratch.url
        let destination = directory.appendingPathComponent("resumed.bin")
        let size = 32 << 20
        let session = Session(transport: TestTransport.make())
        // Cancelled from the progress closure, which runs as each chunk is written: the
        // cancellation lands mid-body even when a loaded machine is slow to wake a waiting task.
        let handle = Protected<RequestHandle?>(nil)
        let (ended, endedContinuation) = AsyncStream<Result<DownloadResponse, RequestError>>.makeStream()
        let started = FastAPIDownloadRequest(size: size).download(
            to: destination, using: session, resumable: true,
            progress: { if $0.bytesReceived >= 1 << 20 { handle.value?.cancel() } }
        ) { endedContinuation.yield($0) }
        handle.withLock { $0 = started }
        var result: Result<DownloadResponse, RequestError>?
        for await outcome in ended {
            result = outcome
            break
        }
        guard case .failure(let error) = result, case .cancelled = error, let resume = error.downloadResumeData
        else {
            Issue.record("expected cancelled with resume data, got \(String(describing: result))")
            return
        }
        #expect(resume.bytesReceived >= 1 << 20)
        #expect(resume.bytesReceived < Int64(size))
        #expect(!FileManager.default.fileExists(atPath: destination.path))

        let steps = Protected((first: TransferProgress?.none, last: TransferProgress()))
        let download = try await FastAPIDownloadRequest(size: size).download(
            to: destination, using: session, resumingFrom: resume
        ) { step in
            steps.withLock { $0 = ($0.first ?? step, step) }
        }
        // a 206: the resumed request's If-Range carried the ETag the first response had
        #expect((download.urlResponse as? HTTPURLResponse)?.statusCode == 206)
        #expect(download.byteCount == Int64(size))
        #expect(steps.value.first?.bytesReceived == resume.bytesReceived)
        #expect(steps.value.last.expectedBytesToReceive == Int64(size))
        #expect(try holdsPattern(destination, size: size))
        #expect(try scratch.names() == ["resumed.bin"])
    }

    @Test("resume data with a stale validator: If-Range does not match, the server sends the whole body (200)")
    func staleValidatorRestarts() async throws {
        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let directory = scratch.url
        let destination = directory.appendingPathComponent("restarted.bin")
        let partial = directory.appendingPathComponent(".restarted.bin.partial.download")
        try Data(repeating: 0xFF, count: 5000).write(to: partial)
        // resume data stored by an earlier run, for a version of the file the server no longer has
        let stored =
            #"{"partialFileURL": "\#(partial.absoluteString)", "bytesReceived": 5000, "validator": "\"stale\""}"#
        let resume = try JSONDecoder().decode(DownloadResumeData.self, from: Data(stored.utf8))
        let size = 100_000
        let download = try await FastAPIDownloadRequest(size: size).download(
            to: destination, using: Session(transport: TestTransport.make()), resumingFrom: resume)
        #expect((download.urlResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(try holdsPattern(destination, size: size))
        #expect(try scratch.names() == ["restarted.bin"])
    }

    @Test("/status/404: unacceptableStatusCode with the decoded error body, and no file")
    func rejected() async throws {
        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let directory = scratch.url
        let session = Session(transport: TestTransport.make(), errorBodyDecoder: .json(FastAPIStatus.self))
        let error = await #expect(throws: RequestError.self) {
            try await FastAPIStreamRequest(path: "status/404").download(
                to: directory.appendingPathComponent("x"), using: session)
        }
        #expect(error?.statusCode == 404)
        #expect((error?.errorBody as? FastAPIStatus) == FastAPIStatus(status: 404, error: "Not Found"))
        #expect(try scratch.names().isEmpty)
    }
}

@Suite(
    "Downloads that fail leave nothing behind (fault server)",
    .enabled(if: FaultServer.url != nil, FaultServer.skipReason))
struct FaultServerDownloadTests {
    @Test("/short-body (1000 bytes promised, 10 sent) and /reset-mid-body fail and leave no file")
    func cutOff() async throws {
        for path in ["short-body", "reset-mid-body"] {
            let scratch = try ScratchDirectory("download")
            defer { scratch.remove() }
            let directory = scratch.url
            try Data("old".utf8).write(to: directory.appendingPathComponent("body.bin"))
            let error = await #expect(throws: RequestError.self, "\(path)") {
                try await FaultRequest(path: path).download(
                    to: directory.appendingPathComponent("body.bin"), using: Session(transport: TestTransport.make()))
            }
            #expect(error?.stage == .transport, "\(path): \(String(describing: error))")
            #expect(try scratch.names() == ["body.bin"], "\(path)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("body.bin")) == Data("old".utf8))
        }
    }

    @Test("/never, cancelled: throws cancelled promptly, leaves no file")
    func cancelNever() async throws {
        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let directory = scratch.url
        let destination = directory.appendingPathComponent("never.bin")
        let request = FaultRequest(path: "never", idleTimeout: 60)
        let task = Task {
            try await request.download(to: destination, using: Session(transport: TestTransport.make()))
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        let started = Date()
        task.cancel()
        let result = await task.result
        guard case .failure(RequestError.cancelled) = result else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        // "promptly": well before the 60 s idle timeout that would end it otherwise; the bound
        // leaves room for a loaded machine (12.9 s seen beside four other builds)
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(try scratch.names().isEmpty)
    }
}
