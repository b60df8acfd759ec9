/// Why a download's body could not be put at its destination, carried by
/// ``RequestError/transportFailed(_:context:)``.
///
/// Whatever the failure, nothing is left at the destination — a file already there is
/// untouched — and the temporary file of the download is removed, unless the download is
/// resumable (see ``DownloadResumeData``).
///
/// ```swift
/// do {
///     _ = try await ReportRequest(id: 7).download(to: reportURL, using: session)
/// } catch .transportFailed(let error as DownloadError, _) {
///     print(error)   // e.g. the body ended after 10 of 1000 bytes
/// } catch {
///     print(error)
/// }
/// ```
public enum DownloadError: Error, CustomStringConvertible {
    /// The body did not have the length its `Content-Length` announced: the connection was
    /// closed or reset after `received` of the `expected` bytes (on every transport, whatever
    /// the transport called it), or — rarely — the server sent more than it announced.
    /// Retried as a lost connection by a ``RetryPolicy``.
    case incompleteBody(received: Int64, expected: Int64)
    /// The temporary file next to the destination (named in the case) could not be created
    /// or written: the directory does not exist or is not writable, the disk is full.
    case fileWriteFailed(URL, underlying: any Error)
    /// The complete body could not be moved to the destination (named in the case): for
    /// example, a directory is there.
    case cannotMoveToDestination(URL, underlying: any Error)

    /// What went wrong, with the file's name but not its directory.
    public var description: String {
        switch self {
        case .incompleteBody(let received, let expected):
            received < expected
                ? "the body ended after \(received) of the \(expected) bytes its Content-Length announced"
                : "the body had \(received) bytes, not the \(expected) its Content-Length announced"
        case .fileWriteFailed(let url, let error):
            "could not write the temporary file \(url.lastPathComponent): \(error)"
        case .cannotMoveToDestination(let url, let error):
            "could not move the downloaded file to \(url.lastPathComponent): \(error)"
        }
    }
}
