import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("BodyFileWriter: a stream's body to a file, the same bytes in any chunking, errors as values")
struct BodyFileWriterTests {
    let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("body-file-writer")
    }

    private static func head(contentLength: Int? = nil) -> HTTPURLResponse {
        HTTPURLResponse(
            url: URL(string: "https://api.example.test/file")!, statusCode: 200, httpVersion: nil,
            headerFields: contentLength.map { ["Content-Length": "\($0)"] } ?? [:])!
    }

    /// Writes `chunks` after a head announcing their total length; returns the file's bytes and
    /// the progress after each chunk.
    private func written(_ chunks: [Data], name: String) throws -> (file: Data, steps: [TransferProgress]) {
        let total = chunks.reduce(0) { $0 + $1.count }
        var writer = BodyFileWriter(fileURL: scratch.file(name))
        let took = writer.take(Self.head(contentLength: total))
        #expect(took)
        var steps = [try writer.open(keeping: nil)]
        for chunk in chunks {
            steps.append(try #require(try writer.write(chunk)))
        }
        _ = try writer.finish()
        return (try Data(contentsOf: scratch.file(name)), steps)
    }

    @Test("split at every byte, or byte by byte: the same file, and the progress ends at the whole body")
    func anyChunking() throws {
        let body = Data((0..<97).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        for cut in 0...body.count {
            let (file, steps) = try written([body.prefix(cut), body.dropFirst(cut)], name: "split-\(cut)")
            #expect(file == body, "split at \(cut)")
            #expect(steps.map(\.bytesReceived) == [0, Int64(cut), Int64(body.count)])
        }
        let (file, steps) = try written(body.map { Data([$0]) }, name: "bytes")
        #expect(file == body)
        #expect(steps.map(\.bytesReceived) == (0...body.count).map(Int64.init))
        #expect(steps.allSatisfy { $0.expectedBytesToReceive == Int64(body.count) })
    }

    @Test("a chunk or an end before the head: badServerResponse, and nothing is written")
    func beforeTheHead() throws {
        var writer = BodyFileWriter(fileURL: scratch.file("early"))
        var early: (any Error)?
        do { _ = try writer.write(Data("early".utf8)) } catch { early = error }
        #expect((early as? URLError)?.code == .badServerResponse)
        var ended: (any Error)?
        do { _ = try writer.finish() } catch { ended = error }
        #expect((ended as? URLError)?.code == .badServerResponse)
        #expect(try scratch.names().isEmpty)
    }

    @Test("a second head is not taken: the first one stays the body's")
    func secondHead() throws {
        var writer = BodyFileWriter(fileURL: scratch.file("twice"))
        let first = Self.head(contentLength: 3)
        let took = writer.take(first)
        #expect(took)
        let tookSecond = writer.take(Self.head(contentLength: 9))
        #expect(!tookSecond)
        #expect(writer.response === first)
    }

    @Test("open(keeping:) keeps the first bytes of the file and writes after them; the progress counts them")
    func keepsTheFirstBytes() throws {
        let url = try scratch.file("partial", contents: Data("01234xyz".utf8))
        var writer = BodyFileWriter(fileURL: url, offset: 5)
        let took = writer.take(Self.head(contentLength: 5))
        #expect(took)
        let opened = try writer.open(keeping: 5)
        #expect(opened.bytesReceived == 5)
        #expect(opened.expectedBytesToReceive == 10)
        let step = try writer.write(Data("56789".utf8))
        #expect(step?.bytesReceived == 10)
        _ = try writer.finish()
        #expect(try Data(contentsOf: url) == Data("0123456789".utf8))
        #expect((writer.offset, writer.bytes) == (5, 5))
    }

    @Test("open(keeping: 0) rewrites an existing file from its first byte")
    func rewrites() throws {
        let url = try scratch.file("stale", contents: Data("stale bytes".utf8))
        var writer = BodyFileWriter(fileURL: url, offset: 5)
        let took = writer.take(Self.head())
        #expect(took)
        let opened = try writer.open(keeping: 0)
        #expect(opened.bytesReceived == 0)
        _ = try writer.write(Data("new".utf8))
        _ = try writer.finish()
        #expect(try Data(contentsOf: url) == Data("new".utf8))
    }

    @Test("a transfer failure after too few bytes is incompleteBody counting the kept ones; a cancellation stays")
    func failures() throws {
        let url = try scratch.file("cut", contents: Data("012".utf8))
        var writer = BodyFileWriter(fileURL: url, offset: 3)
        let took = writer.take(Self.head(contentLength: 7))
        #expect(took)
        _ = try writer.open(keeping: 3)
        _ = try writer.write(Data("34".utf8))
        let cut = writer.failure(URLError(.networkConnectionLost))
        guard case DownloadError.incompleteBody(let received, let expected) = cut else {
            Issue.record("expected incompleteBody, got \(cut)")
            return
        }
        #expect((received, expected) == (5, 10))
        #expect((writer.failure(URLError(.cancelled)) as? URLError)?.code == .cancelled)
        // before any head, a failure is the transport's own
        let early = BodyFileWriter(fileURL: scratch.file("none")).failure(URLError(.networkConnectionLost))
        #expect((early as? URLError)?.code == .networkConnectionLost)
    }

    @Test("closed: a later chunk is dropped, and the bytes written stay")
    func closed() throws {
        var writer = BodyFileWriter(fileURL: scratch.file("closed"))
        let took = writer.take(Self.head())
        #expect(took)
        _ = try writer.open(keeping: nil)
        _ = try writer.write(Data("kept".utf8))
        writer.close()
        let dropped = try writer.write(Data("dropped".utf8))
        #expect(dropped == nil)
        #expect(try Data(contentsOf: scratch.file("closed")) == Data("kept".utf8))
    }

    @Test(
        "a disk that fails mid-body: fileWriteFailed naming the file",
        .enabled(if: FullDisk.isAvailable, "needs /dev/full and /proc (Linux)"))
    func diskFailsMidBody() throws {
        let url = scratch.file("full")
        var writer = BodyFileWriter(fileURL: url)
        let took = writer.take(Self.head())
        #expect(took)
        _ = try writer.open(keeping: nil)
        _ = try writer.write(Data("kept".utf8))
        try FullDisk.fill(url)
        var failure: (any Error)?
        do { _ = try writer.write(Data("lost".utf8)) } catch { failure = error }
        guard case DownloadError.fileWriteFailed(let named, _)? = failure else {
            Issue.record("expected fileWriteFailed, got \(String(describing: failure))")
            return
        }
        #expect(named == url)
        #expect(writer.bytes == 4, "the chunk that failed is not counted")
    }

    @Test("a file that cannot be created: fileWriteFailed naming it")
    func cannotCreate() throws {
        let url = scratch.file("missing-directory/body")
        var writer = BodyFileWriter(fileURL: url)
        let took = writer.take(Self.head())
        #expect(took)
        var failure: DownloadError?
        do { _ = try writer.open(keeping: nil) } catch { failure = error }
        guard case .fileWriteFailed(let named, _)? = failure else {
            Issue.record("expected fileWriteFailed, got \(String(describing: failure))")
            return
        }
        #expect(named == url)
    }
}
