import Foundation
import Testing

@testable import APIKit

@Suite("SpoolWriter")
struct SpoolWriterTests {
    /// Writes `body` into a fresh file and returns its contents.
    static func spool(_ body: RequestBody, isCancelled: @escaping () -> Bool = { false }) throws -> Data {
        let spool = try TemporaryFile("spool.bin", contents: Data())
        defer { spool.remove() }
        let handle = try FileHandle(forWritingTo: spool.url)
        try SpoolWriter.write(body, to: handle, isCancelled: isCancelled)
        try handle.close()
        return try Data(contentsOf: spool.url)
    }

    @Test("bytes and files land in order, byte for byte, the files copied by the kernel")
    func writes() throws {
        let contents = allByteValues(repeated: 40_000)  // ~10 MB: more than one 8 MiB step
        let file = try TemporaryFile("part.bin", contents: contents)
        defer { file.remove() }
        let body = RequestBody(segments: [
            .bytes(Data("head".utf8)), .file(file.url, size: Int64(contents.count)), .bytes(Data("tail".utf8)),
        ])
        #expect(try Self.spool(body) == body.data())
    }

    @Test("only the size noted at build time is copied from a file that grew")
    func grownFile() throws {
        let file = try TemporaryFile("part.bin", contents: Data("0123456789".utf8))
        defer { file.remove() }
        #expect(try Self.spool(RequestBody(segments: [.file(file.url, size: 4)])) == Data("0123".utf8))
    }

    @Test("a file shorter than noted fails with fileChanged; a missing one with unreadableFile")
    func failures() throws {
        let file = try TemporaryFile("part.bin", contents: Data("abc".utf8))
        #expect(throws: RequestBodyError.fileChanged(path: file.url.path, expectedSize: 10)) {
            try Self.spool(RequestBody(segments: [.file(file.url, size: 10)]))
        }
        file.remove()
        #expect {
            try Self.spool(RequestBody(segments: [.file(file.url, size: 3)]))
        } throws: { error in
            guard case .unreadableFile = error as? RequestBodyError else { return false }
            return true
        }
    }

    @Test("a cancellation stops the copy between steps")
    func cancellation() throws {
        // 10 MB: more than one 8 MiB step
        let file = try TemporaryFile("part.bin", contents: allByteValues(repeated: 40_000))
        defer { file.remove() }
        var looks = 0
        #expect(throws: CancellationError.self) {
            try Self.spool(RequestBody(segments: [.file(file.url, size: 256 * 40_000)])) {
                looks += 1
                return looks > 1
            }
        }
    }
}
