/// Checks, when a request is built, that a file to upload can be read, and finds its size.
///
/// The size is what the body will hold of the file: a file that shrinks before it is sent
/// fails the transfer, and bytes added to it are not sent.
enum FileCheck {
    static func size(of url: URL, field: String, key: String) throws(BuildError) -> Int64 {
        func fail(_ reason: BuildError.UnreadableFileReason) -> BuildError {
            .unreadableFile(field: field, key: key, path: url.isFileURL ? url.path : url.absoluteString, reason: reason)
        }
        guard url.isFileURL else { throw fail(.notFileURL) }
        let path = url.resolvingSymlinksInPath().path
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw fail(.missing)
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else { throw fail(.notRegularFile) }
        guard FileManager.default.isReadableFile(atPath: path), let size = byteCount(attributes[.size]) else {
            throw fail(.notReadable)
        }
        return size
    }

    /// The size attribute, whichever integer type the platform's FileManager stores.
    private static func byteCount(_ value: Any?) -> Int64? {
        switch value {
        case let size as Int64: size
        case let size as UInt64: Int64(exactly: size)
        case let size as Int: Int64(size)
        case let size as NSNumber: size.int64Value
        default: nil
        }
    }
}
