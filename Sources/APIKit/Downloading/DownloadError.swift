/// Why a download's body could not be put at its destination, or a resumed download could not
/// continue its partial file, carried by ``RequestError/transportFailed(_:context:)``.
///
/// Whatever the failure, nothing is left at the destination — a file already there is
/// untouched — and the temporary file of the download is removed, unless the download is
/// resumable (see ``DownloadResumeData``). The three resume failures
/// (``rangeNotSatisfiable(bytesReceived:)``, ``contentRangeMismatch(expectedStart:contentRange:)``,
/// ``partialFileUnusable(_:bytesReceived:)``) remove the partial file too, and the error carries
/// no ``RequestError/downloadResumeData``: download again from the start.
///
/// ```swift
/// do {
///     _ = try await ReportRequest(id: 7).download(to: reportURL, using: session)
/// } catch .transportFailed(let error as DownloadError, _) {
///     print(error)   // e.g. the body ended after 10 of 1000 bytes
/// } catch {
///     print(error)
/// }
///
/// do {
///     _ = try await ReportRequest(id: 7).download(to: destination, using: session, resumingFrom: resume)
/// } catch .transportFailed(DownloadError.rangeNotSatisfiable, _) {
///     _ = try await ReportRequest(id: 7).download(to: destination, using: session)
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
    /// The server answered `416 Range Not Satisfiable` to the `Range` asking for the bytes
    /// after `bytesReceived`.
    case rangeNotSatisfiable(bytesReceived: Int64)
    /// The `206 Partial Content` did not start where the partial file ends
    /// (`expectedStart`); `contentRange` is the `Content-Range` it sent, if any.
    case contentRangeMismatch(expectedStart: Int64, contentRange: String?)
    /// The partial file of the ``DownloadResumeData`` (named in the case) is gone or holds
    /// fewer than `bytesReceived` bytes; nothing was sent.
    case partialFileUnusable(URL, bytesReceived: Int64)

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
        case .rangeNotSatisfiable(let received):
            "the server cannot send the bytes after the \(received) already received (416): download again"
        case .contentRangeMismatch(let start, let range):
            "the resumed body does not start at byte \(start) (Content-Range: \(range ?? "none"))"
        case .partialFileUnusable(let url, let received):
            "the partial file \(url.lastPathComponent) is missing or shorter than \(received) bytes: download again"
        }
    }
}
