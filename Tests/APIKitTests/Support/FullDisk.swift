import APIKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A full disk under one open file: every later write to it fails with `ENOSPC`, as when the
/// disk fills up mid-download. Its descriptor, found through `/proc/self/fd`, is pointed at
/// `/dev/full`; Linux only (``isAvailable``).
enum FullDisk {
    /// Whether this system has what it needs: `/dev/full` and `/proc/self/fd`.
    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: "/dev/full") && FileManager.default.fileExists(atPath: "/proc/self/fd")
    }

    /// The temporary file of a download in `directory` (`.NAME.UUID.download`) once it holds
    /// `count` bytes; `nil` when none does within `eventually`'s bound.
    static func downloadFile(in directory: URL, holding count: Int) async -> URL? {
        let found = Protected<URL?>(nil)
        _ = await eventually {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            let file = names.first { $0.hasSuffix(".download") }.map(directory.appendingPathComponent)
            guard let file, (try? Data(contentsOf: file))?.count == count else { return false }
            found.withLock { $0 = file }
            return true
        }
        return found.value
    }

    /// Makes the writes to the file this process has open at `url` fail from now on.
    static func fill(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        let suffix = "/" + url.lastPathComponent
        let descriptors = names.compactMap { name -> Int32? in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")
            return target?.hasSuffix(suffix) == true ? Int32(name) : nil
        }
        let descriptor = try #require(
            descriptors.first, "no open descriptor on \(url.path)", sourceLocation: sourceLocation)
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0, sourceLocation: sourceLocation)
        defer { close(full) }
        try #require(dup2(full, descriptor) == descriptor, sourceLocation: sourceLocation)
    }
}
