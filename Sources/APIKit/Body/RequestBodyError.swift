/// Why the bytes of a ``RequestBody`` could not be read while the request was sent.
///
/// Files are checked when the request is built (``BuildError/unreadableFile(field:key:path:reason:)``);
/// these are the failures that can only happen later, while APIKit reads the body for a
/// transport (see ``RequestBody``). The transfer stops, nothing more is sent, and the request
/// fails with ``RequestError/transportFailed(_:context:)`` carrying this error.
public enum RequestBodyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file ended before the size it had when the request was built: it was truncated or
    /// replaced meanwhile, and sending what is left would not match the declared length.
    case fileChanged(path: String, expectedSize: Int64)
    /// A file could not be opened or read; `reason` is the system's description.
    case unreadableFile(path: String, reason: String)
    /// A transport that sends a body of known length from a file (corelibs `URLSession`)
    /// could not write the body to its temporary file; `reason` is the system's description.
    case spoolFailed(reason: String)

    /// A sentence naming the file and what happened to it.
    public var description: String {
        switch self {
        case .fileChanged(let path, let size):
            "file \"\(path.debugEscaped)\" held fewer than the \(size) bytes it had when the request was built"
        case .unreadableFile(let path, let reason):
            "file \"\(path.debugEscaped)\" could not be read while sending: \(reason)"
        case .spoolFailed(let reason):
            "the body could not be written to a temporary file to send with its length: \(reason)"
        }
    }
}
