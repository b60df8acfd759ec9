import APIKit
import APIKitTestSupport
import Foundation
import Testing

/// The files that hold `marker` at their start: in the system's temporary directory (where
/// corelibs writes a download task's body on Linux) and in `directory` (where APIKit writes
/// beside the destination). A body that starts with a marker of its own is told apart from
/// every other test's files, so the check is made at once, with other tests running beside it.
private func files(holding marker: String, besides directory: URL) -> [String] {
    let prefix = Data(marker.utf8)
    var found: [String] = []
    for folder in [URL(fileURLWithPath: NSTemporaryDirectory()), directory] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names {
            let url = folder.appendingPathComponent(name)
            // Regular files only: opening a named pipe another program left in the temporary
            // directory (valgrind's vgdb makes some) blocks until a writer comes — forever.
            let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
            guard type == .typeRegular, let handle = try? FileHandle(forReadingFrom: url) else { continue }
            defer { try? handle.close() }
            if (try? handle.read(upToCount: prefix.count)) == prefix { found.append(url.path) }
        }
    }
    return found
}

/// What a failed or cancelled download leaves, through the transport under test
/// (`URLSessionTransport`, or `AsyncHTTPClientTransport` in that package's run): the error a
/// caller acts on, and no file anywhere once `download` has returned — checked at once, not
/// after a while.
@Suite(
    "Downloads that fail or are cancelled: one error for a cut-off body, no file left anywhere when they return",
    .enabled(if: FaultServer.url != nil, FaultServer.skipReason))
struct DownloadLeftoverTests {
    @Test(
        "a body cut off (closed early, or reset) throws DownloadError.incompleteBody with both counts, resumable or not",
        arguments: ["short-body", "reset-mid-body"], [false, true])
    func cutOff(path: String, resumable: Bool) async throws {
        let scratch = try ScratchDirectory("leftover")
        defer { scratch.remove() }
        let directory = scratch.url
        let destination = directory.appendingPathComponent("body.bin")
        try Data("old".utf8).write(to: destination)
        let marker = "cut-\(UUID().uuidString)"
        let error = await #expect(throws: RequestError.self) {
            try await FaultRequest(path: path, body: marker).download(
                to: destination, using: Session(transport: TestTransport.make()), resumable: resumable)
        }
        guard case .transportFailed(let underlying, _) = error,
            case .incompleteBody(let received, let expected) = underlying as? DownloadError
        else {
            Issue.record("expected DownloadError.incompleteBody, got \(String(describing: error))")
            return
        }
        #expect(received == Int64(marker.utf8.count))
        #expect(expected == 1000)
        #expect("\(underlying)" == "the body ended after \(received) of the 1000 bytes its Content-Length announced")
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
        if resumable {
            let resume = try #require(error?.downloadResumeData)
            #expect(resume.bytesReceived == received)
            #expect(files(holding: marker, besides: directory) == [resume.partialFileURL.path])
            try FileManager.default.removeItem(at: resume.partialFileURL)
        }
        #expect(files(holding: marker, besides: directory) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["body.bin"])
    }

    @Test("cancelled mid-body (async): when download returns, no file of it is left anywhere")
    func cancelled() async throws {
        let scratch = try ScratchDirectory("leftover")
        defer { scratch.remove() }
        let directory = scratch.url
        let marker = "cancel-\(UUID().uuidString)"
        let (written, writtenContinuation) = AsyncStream<Void>.makeStream()
        // 1 byte every 3 s after the marker: the transfer is still running when it is cancelled,
        // even late (beside stress-ng a 19 s drip has ended before a cancel came)
        let request = FaultRequest(path: "drip", interval: 3, body: marker, idleTimeout: 60)
        let task = Task {
            try await request.download(
                to: directory.appendingPathComponent("body.bin"), using: Session(transport: TestTransport.make())
            ) { step in
                if step.bytesReceived > 0 { writtenContinuation.yield() }
            }
        }
        for await _ in written { break }
        task.cancel()
        let result = await task.result
        let left = files(holding: marker, besides: directory)
        guard case .failure(RequestError.cancelled) = result else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        #expect(left == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    @Test("cancelled mid-body through the handle: when the completion runs, no file of it is left anywhere")
    func cancelledHandle() async throws {
        let scratch = try ScratchDirectory("leftover")
        defer { scratch.remove() }
        let directory = scratch.url
        let marker = "handle-\(UUID().uuidString)"
        let (written, writtenContinuation) = AsyncStream<Void>.makeStream()
        let (ended, endedContinuation) = AsyncStream<(Result<DownloadResponse, RequestError>, [String])>.makeStream()
        let request = FaultRequest(path: "drip", interval: 3, body: marker, idleTimeout: 60)
        let handle = request.download(
            to: directory.appendingPathComponent("body.bin"), using: Session(transport: TestTransport.make())
        ) { step in
            if step.bytesReceived > 0 { writtenContinuation.yield() }
        } completion: { result in
            endedContinuation.yield((result, files(holding: marker, besides: directory)))
            endedContinuation.finish()
        }
        for await _ in written { break }
        handle.cancel()
        var outcomes: [(Result<DownloadResponse, RequestError>, [String])] = []
        for await outcome in ended { outcomes.append(outcome) }
        #expect(outcomes.count == 1)
        guard let (result, left) = outcomes.first, case .failure(.cancelled) = result else {
            Issue.record("expected cancelled, got \(outcomes)")
            return
        }
        #expect(left == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }
}
