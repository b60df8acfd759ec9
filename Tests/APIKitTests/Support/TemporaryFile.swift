import APIKitTestSupport
import Foundation

/// A file in a ``ScratchDirectory`` of its own, removed with the directory by ``remove()`` or,
/// at the latest, once nothing holds it.
struct TemporaryFile: Sendable {
    let scratch: ScratchDirectory
    let url: URL

    /// Writes `contents` to a new file called `name`.
    init(_ name: String = "file.bin", contents: Data) throws {
        scratch = try ScratchDirectory()
        url = try scratch.file(name, contents: contents)
    }

    /// Deletes the file and its directory.
    func remove() {
        scratch.remove()
    }
}

/// Every byte value 0...255, then the same again, `count` times: binary data with NUL, CR, LF.
func allByteValues(repeated count: Int = 1) -> Data {
    Data((0..<(256 * count)).map { UInt8(truncatingIfNeeded: $0) })
}
