import APIKit
import APIKitTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `POST /raw` on the FastAPI server with a file as the whole body: it answers with the size it
/// read and the framing headers it saw.
private struct FastAPIRawFileDownload: Request, RequestConfiguration {
    var base = FastAPIServer.url ?? URL(string: "http://127.0.0.1:9")!
    var path: String { "raw" }
    var method: HTTPMethod { .post }
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    @FileBody("application/octet-stream") var file: URL? = nil
}

private struct RawReport: Decodable {
    let size: Int
    let headers: [String: String?]
}

/// The files corelibs Foundation writes download tasks to: `<UUID>.tmp` in the system's
/// temporary directory (none on Apple platforms, where `URLSession` manages its own).
private func corelibsFiles() -> Set<String> {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
    return Set(names.filter { $0.hasSuffix(".tmp") && UUID(uuidString: String($0.dropLast(4))) != nil })
}

/// Which of the corelibs files that appeared since `before` are still there after up to 60 s,
/// and not empty: one of a transfer still in flight elsewhere (another test, another process) is
/// moved away when that transfer ends — on a busy machine, with the suites running side by side,
/// that can take more than 10 s; one that was leaked stays.
///
/// An empty file is not counted: a download refused at once elsewhere in the process (the road
/// table's failing transport, say) can leave one that no transport can reach (see
/// `CorelibsDownloadLocation`), and nothing tells it from this test's. A transport that stopped
/// removing its files shows in the tests that cancel or cut off a body that has begun (a file
/// with bytes); one that missed only empty files would not show here.
private func leakedCorelibsFiles(since before: Set<String>) async throws -> Set<String> {
    var left = corelibsFiles().subtracting(before)
    for _ in 0..<600 where !left.isEmpty {
        try await Task.sleep(nanoseconds: 100_000_000)
        left.formIntersection(corelibsFiles())
        left = left.filter { name in
            let path = (NSTemporaryDirectory() as NSString).appendingPathComponent(name)
            return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).map { $0 > 0 } ?? true
        }
    }
    return left
}

/// Expects that no corelibs file that appeared since `before` is left (see
/// ``leakedCorelibsFiles(since:)``); a failure names each file left, its size and its age, to
/// tell a leak of this test's from another transfer's file.
private func expectNoLeakedCorelibsFiles(
    since before: Set<String>, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let leaked = try await leakedCorelibsFiles(since: before)
    let described = leaked.sorted().map { name -> String in
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent(name)
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = attributes?[.size] as? Int ?? -1
        let age = (attributes?[.modificationDate] as? Date).map { -$0.timeIntervalSinceNow } ?? -1
        return "\(name): \(size) bytes, written \(Int(age)) s ago"
    }
    #expect(leaked.isEmpty, "corelibs files left: \(described)", sourceLocation: sourceLocation)
}

/// Whether a corelibs file that was not there `before` has bytes in it within 10 s.
private func firstWrittenCorelibsFile(since before: Set<String>) async throws -> Bool {
    for _ in 0..<1_000 {
        for name in corelibsFiles().subtracting(before) {
            let path = (NSTemporaryDirectory() as NSString).appendingPathComponent(name)
            if let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > 0 {
                return true
            }
        }
        try await Task.sleep(nanoseconds: 10_000_000)
    }
    return false
}

/// Whether the file at `url` holds `size` bytes of the server's pattern (byte I = I % 251).
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

/// The first outcome of `transport`'s own download of `request` to `file`, without progress.
private func firstOutcome(
    of transport: URLSessionTransport, downloading request: URLRequest, to file: URL
) async -> Result<URLResponse, any Error>? {
    let (ended, endedContinuation) = AsyncStream<Result<URLResponse, any Error>>.makeStream()
    _ = transport.download(request, to: file, progress: nil) { endedContinuation.yield($0) }
    for await outcome in ended { return outcome }
    return nil
}

/// A directory on another file system than the system's temporary directory, where corelibs
/// writes a download task's file: `/dev/shm` where it is a file system of its own (a `tmpfs` on
/// Linux); `nil` elsewhere.
private let otherFileSystem: URL? = {
    let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
    var temporary = stat()
    var other = stat()
    guard stat(NSTemporaryDirectory(), &temporary) == 0, stat(shm.path, &other) == 0,
        temporary.st_dev != other.st_dev, access(shm.path, W_OK) == 0
    else { return nil }
    return shm
}()

@Suite(
    "URLSessionTransport.download: a download task whose file APIKit checks (FastAPI on uvicorn)",
    .enabled(if: FastAPIServer.url != nil, FastAPIServer.skipReason),
    .urlSessionOnly("URLSessionTransport's download task and corelibs' temporary files"))
struct URLSessionTransportDownloadTests {
    @Test(
        "download(_:to:) directly, with progress (the file watched) and without: the body at the given file, progress up to the Content-Length, one completion",
        arguments: [true, false])
    func direct(reportsProgress: Bool) async throws {
        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let directory = scratch.url
        let before = corelibsFiles()
        let transport = URLSessionTransport()
        for size in [0, 1, 300_000] {
            let file = directory.appendingPathComponent("direct-\(size).download")
            let steps = Protected<[TransferProgress]>([])
            let calls = Protected(0)
            let request = try FastAPIDownloadRequest(size: size).makeURLRequest()
            let (ended, endedContinuation) = AsyncStream<Result<URLResponse, any Error>>.makeStream()
            let progress: (@Sendable (TransferProgress) -> Void)? =
                reportsProgress ? { @Sendable step in steps.append(step) } : nil
            _ = transport.download(request, to: file, progress: progress) { result in
                calls.withLock { $0 += 1 }
                endedContinuation.yield(result)
            }
            var result: Result<URLResponse, any Error>?
            for await outcome in ended {
                result = outcome
                break
            }
            let response = try #require(try result?.get())
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(try holdsPattern(file, size: size), "\(size)")
            let received = steps.value.map(\.bytesReceived)
            #expect(received == received.sorted(), "\(size): progress went backwards")
            if !reportsProgress {
                #expect(received.isEmpty)
            } else if size > 0 {
                #expect(received.last == Int64(size))
                #expect(steps.value.last?.expectedBytesToReceive == Int64(size))
            }
            try await Task.sleep(nanoseconds: 20_000_000)
            #expect(calls.value == 1)
        }
        try await expectNoLeakedCorelibsFiles(since: before)
    }

    @Test(
        "a destination on another file system than corelibs' file: the body copied, then renamed into place; no copy or temporary file left",
        .enabled(if: otherFileSystem != nil, "needs /dev/shm on a file system of its own"))
    func otherFileSystemDestination() async throws {
        let scratch = try ScratchDirectory("download", in: try #require(otherFileSystem))
        defer { scratch.remove() }
        let before = corelibsFiles()
        let transport = URLSessionTransport()
        for size in [0, 300_000] {
            // the transport's own download: corelibs' file copied beside `file`, then renamed
            let file = scratch.file("direct-\(size).bin")
            let result = await firstOutcome(
                of: transport, downloading: try FastAPIDownloadRequest(size: size).makeURLRequest(), to: file)
            #expect((try result?.get() as? HTTPURLResponse)?.statusCode == 200, "\(size)")
            #expect(try holdsPattern(file, size: size), "\(size)")
            // and a request's download: the same copy, to the hidden file APIKit checks and moves
            let destination = scratch.file("request-\(size).bin")
            let download = try await FastAPIDownloadRequest(size: size).download(
                to: destination, using: Session(transport: transport))
            #expect(download.byteCount == Int64(size))
            #expect(try holdsPattern(destination, size: size), "\(size)")
        }
        #expect(try scratch.names() == ["direct-0.bin", "direct-300000.bin", "request-0.bin", "request-300000.bin"])
        try await expectNoLeakedCorelibsFiles(since: before)
    }

    @Test(
        "a body that cannot be renamed into place (a directory holding a file is there): fileWriteFailed, corelibs' file gone"
    )
    func renameIntoPlaceFails() async throws {
        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let blocker = scratch.file("body.bin")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
        _ = try Data("x".utf8).write(to: blocker.appendingPathComponent("inside"))
        let before = corelibsFiles()
        let result = await firstOutcome(
            of: URLSessionTransport(), downloading: try FastAPIDownloadRequest(size: 1_000).makeURLRequest(),
            to: blocker)
        guard case .failure(let error) = result, case .fileWriteFailed(let url, _) = error as? DownloadError else {
            Issue.record("expected fileWriteFailed, got \(String(describing: result))")
            return
        }
        #expect(url == blocker)
        #expect(try scratch.names() == ["body.bin"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: blocker.path) == ["inside"])
        try await expectNoLeakedCorelibsFiles(since: before)
    }

    @Test("cancelled mid-body: one completion with cancelled, nothing at the destination, no temporary file anywhere")
    func cancelMidBody() async throws {
        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let directory = scratch.url
        let destination = directory.appendingPathComponent("cancelled.bin")
        let before = corelibsFiles()
        let session = Session(transport: URLSessionTransport())
        let handle = Protected<RequestHandle?>(nil)
        let calls = Protected(0)
        let (ended, endedContinuation) = AsyncStream<Result<DownloadResponse, RequestError>>.makeStream()
        let started = FastAPIDownloadRequest(size: 64 << 20).download(
            to: destination, using: session,
            progress: { if $0.bytesReceived >= 1 << 20 { handle.value?.cancel() } }
        ) { result in
            calls.withLock { $0 += 1 }
            endedContinuation.yield(result)
        }
        handle.withLock { $0 = started }
        var result: Result<DownloadResponse, RequestError>?
        for await outcome in ended {
            result = outcome
            break
        }
        guard case .failure(.cancelled) = result else {
            Issue.record("expected cancelled, got \(String(describing: result))")
            return
        }
        #expect(try scratch.names().isEmpty)
        try await expectNoLeakedCorelibsFiles(since: before)
        #expect(calls.value == 1)
    }

    @Test("cancelled at random moments, 30 times: no crash, one completion each, no file left")
    func cancelAtRandom() async throws {
        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let directory = scratch.url
        let before = corelibsFiles()
        let session = Session(transport: URLSessionTransport())
        for round in 0..<30 {
            let destination = directory.appendingPathComponent("round-\(round).bin")
            let calls = Protected(0)
            let (ended, endedContinuation) = AsyncStream<Result<DownloadResponse, RequestError>>.makeStream()
            let handle = FastAPIDownloadRequest(size: 4 << 20).download(to: destination, using: session) { result in
                calls.withLock { $0 += 1 }
                endedContinuation.yield(result)
            }
            try await Task.sleep(nanoseconds: UInt64.random(in: 0...30_000_000))
            handle.cancel()
            var result: Result<DownloadResponse, RequestError>?
            for await outcome in ended {
                result = outcome
                break
            }
            switch result {
            case .success: #expect(try holdsPattern(destination, size: 4 << 20))
            case .failure(.cancelled): #expect(!FileManager.default.fileExists(atPath: destination.path))
            default: Issue.record("round \(round): \(String(describing: result))")
            }
            #expect(calls.value == 1)
        }
        #expect(try scratch.names().allSatisfy { !$0.hasPrefix(".") })
        try await expectNoLeakedCorelibsFiles(since: before)
    }

    @Test("cancelled after its first chunk was written but before the busy delegate queue reported it: no file left")
    func cancelBeforeFirstReport() async throws {
        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let directory = scratch.url
        let before = corelibsFiles()
        let transport = URLSessionTransport()
        // The first progress report of `blocker` suspends the transport's delegate queue (the
        // serial OperationQueue it runs on), which then starts nothing more until the test resumes
        // it: the queue is held without holding a thread.
        let heldQueue = Protected<OperationQueue?>(nil)
        defer { heldQueue.value?.isSuspended = false }
        let (blocking, blockingContinuation) = AsyncStream<Void>.makeStream()
        let (blockerEnded, blockerEndedContinuation) = AsyncStream<Void>.makeStream()
        let reported = Protected(false)
        _ = transport.download(
            try FastAPIDownloadRequest(size: 1 << 20).makeURLRequest(),
            to: directory.appendingPathComponent("blocker.bin"),
            progress: { _ in
                let first = reported.withLock { wasReported in
                    defer { wasReported = true }
                    return !wasReported
                }
                guard first else { return }
                let queue = OperationQueue.current
                queue?.isSuspended = true
                heldQueue.withLock { $0 = queue }
                blockingContinuation.yield()
            }
        ) { _ in blockerEndedContinuation.yield() }
        for await _ in blocking { break }
        try #require(heldQueue.value != nil, "the progress report did not run on an OperationQueue")
        // Meanwhile corelibs writes the first chunks of `cancelled` to a file of its own, and
        // the download is cancelled before any of them is reported.
        let beforeCancelled = corelibsFiles()
        let steps = Protected(0)
        let (ended, endedContinuation) = AsyncStream<Result<URLResponse, any Error>>.makeStream()
        let cancelled = transport.download(
            try FastAPIDownloadRequest(size: 256 << 20).makeURLRequest(),
            to: directory.appendingPathComponent("cancelled.bin"),
            progress: { _ in steps.withLock { $0 += 1 } }
        ) { endedContinuation.yield($0) }
        let written = try await firstWrittenCorelibsFile(since: beforeCancelled)
        try await Task.sleep(nanoseconds: 100_000_000)
        let reportsBeforeCancel = steps.value
        cancelled.cancel()
        // corelibs lets go of the task's protocol object on its work queue once the cancellation
        // has run there: give it that time before the reports come.
        try await Task.sleep(nanoseconds: 500_000_000)
        heldQueue.value?.isSuspended = false
        var result: Result<URLResponse, any Error>?
        for await outcome in ended {
            result = outcome
            break
        }
        for await _ in blockerEnded { break }
        #expect(written, "no corelibs file was written to within 10 s")
        #expect(reportsBeforeCancel == 0, "the delegate queue was not held: \(reportsBeforeCancel) reports came first")
        guard case .failure(let error as URLError) = result, error.code == .cancelled else {
            Issue.record("expected URLError(.cancelled), got \(String(describing: result))")
            return
        }
        #expect(try scratch.names() == ["blocker.bin"])
        try await expectNoLeakedCorelibsFiles(since: before)
    }

    @Test("a 4xx: the error body, read from the download task's file, decoded; no file anywhere")
    func rejected() async throws {
        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let directory = scratch.url
        let before = corelibsFiles()
        let session = Session(transport: URLSessionTransport(), errorBodyDecoder: .json(FastAPIStatus.self))
        let error = await #expect(throws: RequestError.self) {
            try await FastAPIStreamRequest(path: "status/409").download(
                to: directory.appendingPathComponent("x"), using: session)
        }
        #expect(error?.statusCode == 409)
        #expect((error?.errorBody as? FastAPIStatus) == FastAPIStatus(status: 409, error: "Conflict"))
        #expect(try scratch.names().isEmpty)
        try await expectNoLeakedCorelibsFiles(since: before)
    }

    @Test("a request with a file body goes through the stream-based download, its body sent with Content-Length")
    func fileBodyFallsBackToStream() async throws {
        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let directory = scratch.url
        let upload = directory.appendingPathComponent("upload.bin")
        try Data(repeating: 7, count: 100_000).write(to: upload)
        let destination = directory.appendingPathComponent("report.json")
        let download = try await FastAPIRawFileDownload(file: upload).download(
            to: destination, using: Session(transport: URLSessionTransport()))
        let report = try JSONDecoder().decode(RawReport.self, from: Data(contentsOf: download.fileURL))
        #expect(report.size == 100_000)
        #expect(report.headers["content-length"] == "100000")
        #expect(try scratch.names() == ["report.json", "upload.bin"])
    }
}

@Suite(
    "URLSessionTransport.download against faults: nothing left behind",
    .enabled(if: FaultServer.url != nil, FaultServer.skipReason))
struct URLSessionTransportDownloadFaultTests {
    @Test("/reset-mid-body and /short-body: a transport error, and no partial file anywhere")
    func cutOff() async throws {
        let before = corelibsFiles()
        for path in ["reset-mid-body", "short-body"] {
            let scratch = try ScratchDirectory("download")
            defer { scratch.remove() }
            let directory = scratch.url
            let error = await #expect(throws: RequestError.self, "\(path)") {
                try await FaultRequest(path: path).download(
                    to: directory.appendingPathComponent("body.bin"), using: Session(transport: URLSessionTransport()))
            }
            #expect(error?.stage == .transport, "\(path): \(String(describing: error))")
            #expect(try scratch.names().isEmpty, "\(path)")
        }
        try await expectNoLeakedCorelibsFiles(since: before)
    }

    @Test("a RetryPolicy retries a download cut off mid-body; every attempt's files are gone")
    func retriedCutOff() async throws {
        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let directory = scratch.url
        let before = corelibsFiles()
        let waits = Protected<[TimeInterval]>([])
        let session = Session(transport: URLSessionTransport(), retryPolicy: RetryPolicy(maxAttempts: 3))
            .recordingWaits(into: waits)
        let error = await #expect(throws: RequestError.self) {
            try await FaultRequest(path: "reset-mid-body").download(
                to: directory.appendingPathComponent("body.bin"), using: session)
        }
        #expect(error?.stage == .transport)
        #expect(waits.value.count == 2)
        #expect(try scratch.names().isEmpty)
        try await expectNoLeakedCorelibsFiles(since: before)
    }
}
