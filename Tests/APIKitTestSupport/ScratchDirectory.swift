public import Foundation

/// A fresh, empty directory of one test's own under the system's temporary directory, removed
/// with everything in it by ``remove()`` or, at the latest, when the last reference to it goes.
///
/// A suite that stores one gets a new directory for each test, gone once the test ends: the
/// suite leaves nothing in `/tmp`, however often it runs. Counting the directory's files tells
/// whether a transfer left one behind.
///
/// ```swift
/// struct DownloadTests {
///     let scratch = try ScratchDirectory("download")
///
///     @Test func writesTheFile() async throws {
///         let destination = scratch.file("body.bin")
///         ...
///         #expect(try scratch.names() == ["body.bin"])
///     }
/// }
/// ```
///
/// A test that keeps one in a local variable removes it with `defer { scratch.remove() }`: that
/// also keeps the directory alive until the test's end, which the optimiser may otherwise not.
public final class ScratchDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates `apikit-<purpose>-<UUID>` in `parent`, the temporary directory by default.
    ///
    /// - Parameters:
    ///   - purpose: A word for the directory's name, to tell whose it is.
    ///   - parent: The directory to make it in, which must exist: another than the temporary
    ///     directory puts the files on another file system (`/dev/shm`, say).
    /// - Throws: The file system's error when the directory cannot be made.
    public init(_ purpose: String = "tests", in parent: URL = FileManager.default.temporaryDirectory) throws {
        url = parent.appendingPathComponent("apikit-\(purpose)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    deinit {
        remove()
    }

    /// The URL of `name` in the directory; nothing is written.
    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// A file in the directory holding `contents`.
    public func file(_ name: String, contents: Data) throws -> URL {
        let file = file(name)
        try contents.write(to: file)
        return file
    }

    /// A file of `size` bytes of a repeating pattern (byte I is I % 251), written in 1 MiB blocks.
    public func file(_ name: String, size: Int) throws -> URL {
        let file = file(name)
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) })
        var left = size
        while left > 0 {
            let count = min(left, block.count)
            try handle.write(contentsOf: block.prefix(count))
            left -= count
        }
        return file
    }

    /// The names of the files in the directory, hidden ones included, sorted.
    public func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// Deletes the directory and everything in it; nothing happens when it is already gone.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
