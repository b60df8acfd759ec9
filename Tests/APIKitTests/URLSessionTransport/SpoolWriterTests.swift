import Foundation
import Testing

@testable import APIKit

@Suite("SpoolWriter")
struct SpoolWriterTests {
    /// Writes `body` into a fresh file and returns its contents.
    ///
    /// - Parameter appending: Opens the spool with `O_APPEND`, which `sendfile(2)` refuses
    ///   (`EINVAL`): the writer's fallback, reads and writes, copies the files.
    static func spool(
        _ body: RequestBody, appending: Bool = false, isCancelled: @escaping () -> Bool = { false }
    ) throws -> Data {
        let spool = try TemporaryFile("spool.bin", contents: Data())
        defer { spool.remove() }
        let handle: FileHandle
        if appending {
            let descriptor = open(spool.url.path, O_WRONLY | O_APPEND)
            try #require(descriptor >= 0)
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        } else {
            handle = try FileHandle(forWritingTo: spool.url)
        }
        try SpoolWriter.write(body, to: handle, isCancelled: isCancelled)
        try handle.close()
        return try Data(contentsOf: spool.url)
    }

    @Test("where the kernel refuses to copy (a spool opened O_APPEND), files are read and written: the same bytes")
    func readAndWriteFallback() throws {
        let contents = allByteValues(repeated: 40_000)  // ~10 MB: more than one 1 MiB read
        let file = try TemporaryFile("part.bin", contents: contents)
        defer { file.remove() }
        let body = RequestBody(segments: [
            .bytes(Data("head".utf8)), .file(file.url, size: Int64(contents.count)), .bytes(Data("tail".utf8)),
        ])
        #expect(try Self.spool(body, appending: true) == body.data())
        let grown = RequestBody(segments: [.file(file.url, size: 4)])
        #expect(try Self.spool(grown, appending: true) == contents.prefix(4))
        #expect(throws: RequestBodyError.fileChanged(path: file.url.path, expectedSize: Int64(contents.count + 1))) {
            try Self.spool(RequestBody(segments: [.file(file.url, size: Int64(contents.count + 1))]), appending: true)
        }
    }

    @Test(
        "a spool that cannot be written (a full disk) fails with spoolFailed, for bytes and for a file",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func fullSpool() throws {
        let file = try TemporaryFile("part.bin", contents: Data("abc".utf8))
        defer { file.remove() }
        for body in [
            RequestBody(segments: [.bytes(Data("abc".utf8))]), RequestBody(segments: [.file(file.url, size: 3)]),
        ] {
            let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
            defer { try? full.close() }
            #expect {
                try SpoolWriter.write(body, to: full, isCancelled: { false })
            } throws: { error in
                guard case .spoolFailed = error as? RequestBodyError else { return false }
                return true
            }
        }
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
