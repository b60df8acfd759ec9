import Foundation

/// A file in a fresh temporary directory, removed with the directory by ``remove()``.
struct TemporaryFile: Sendable {
    let url: URL

    /// Writes `contents` to a new file called `name`.
    init(_ name: String = "file.bin", contents: Data) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("apikit-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent(name)
        try contents.write(to: url)
    }

    /// Deletes the file and its directory.
    func remove() {
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }
}

/// Every byte value 0...255, then the same again, `count` times: binary data with NUL, CR, LF.
func allByteValues(repeated count: Int = 1) -> Data {
    Data((0..<(256 * count)).map { UInt8(truncatingIfNeeded: $0) })
}
