/// Why a resumed download could not continue its partial file, carried by
/// ``RequestError/transportFailed(_:context:)``.
///
/// In every case the partial file is removed and the error carries no
/// ``RequestError/downloadResumeData``: download again from the start.
///
/// ```swift
/// do {
///     _ = try await ReportRequest(id: 7).download(to: destination, using: session, resumingFrom: resume)
/// } catch .transportFailed(let error as DownloadResumeError, _) {
///     print(error)   // e.g. the server answered 416
///     _ = try await ReportRequest(id: 7).download(to: destination, using: session)
/// }
/// ```
public enum DownloadResumeError: Error, Hashable, CustomStringConvertible {
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
        case .rangeNotSatisfiable(let received):
            "the server cannot send the bytes after the \(received) already received (416): download again"
        case .contentRangeMismatch(let start, let range):
            "the resumed body does not start at byte \(start) (Content-Range: \(range ?? "none"))"
        case .partialFileUnusable(let url, let received):
            "the partial file \(url.lastPathComponent) is missing or shorter than \(received) bytes: download again"
        }
    }
}
