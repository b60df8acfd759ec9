import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

#if canImport(FoundationNetworking)
    import FoundationNetworking

    @Suite("SpooledUpload: a multipart body with files, written to a spool file first (corelibs)")
    struct SpooledUploadTests {
        @Test(
            "a spool that fails before its task exists completes once on the transport's delegate queue, as a task would, and leaves no spool file"
        )
        func failureOnTheDelegateQueue() async throws {
            let scratch = try ScratchDirectory("spool")
            defer { scratch.remove() }
            let file = try scratch.file("part.bin", size: 1 << 16)
            let spool = scratch.url.appendingPathComponent("spool", isDirectory: true)
            try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: false)
            let transport = URLSessionTransport(spoolDirectory: spool)
            var request = URLRequest(url: URL(string: "http://127.0.0.1:9/upload")!)
            request.httpMethod = "POST"
            request.setRequestBody(RequestBody(segments: [.bytes(Data("head".utf8)), .file(file, size: 1 << 16)]))
            try Data("short".utf8).write(to: file)  // shorter than when the body was built

            let ended = CompletionProbe<(onDelegateQueue: Bool, failure: RequestBodyError?)>()
            let delegateQueue = transport.session.delegateQueue
            _ = transport.send(request, progress: nil) { result in
                let failure: RequestBodyError? =
                    if case .failure(let error) = result { error as? RequestBodyError } else { nil }
                ended.record((OperationQueue.current === delegateQueue, failure))
            }
            let outcome = try #require(await ended.first())
            #expect(outcome.onDelegateQueue)
            #expect(outcome.failure == .fileChanged(path: file.path, expectedSize: 1 << 16))
            #expect(await ended.released())
            #expect(ended.count == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty)
        }
    }
#endif
