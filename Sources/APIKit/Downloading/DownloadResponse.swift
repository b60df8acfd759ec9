/// A finished download: the file it wrote, the response it came with, and its size.
///
/// Returned by ``Request/download(to:using:resumable:resumingFrom:options:progress:)`` once the whole body is at
/// ``fileURL``.
///
/// ```swift
/// let download = try await ReportRequest(id: 7).download(to: reportURL, using: session)
/// print(download.byteCount, "bytes at", download.fileURL.path)
/// if let http = download.urlResponse as? HTTPURLResponse { print("status", http.statusCode) }
/// ```
public struct DownloadResponse: Sendable {
    /// Where the body is: the destination the download was asked to write.
    public var fileURL: URL
    /// The response; an `HTTPURLResponse` for HTTP.
    public var urlResponse: URLResponse
    /// The size of the body written to ``fileURL``, in bytes.
    public var byteCount: Int64

    /// Creates a download response, as a finished download does.
    ///
    /// - Parameters:
    ///   - fileURL: Where the body is.
    ///   - urlResponse: The response the body came with.
    ///   - byteCount: The size of the body, in bytes.
    init(fileURL: URL, urlResponse: URLResponse, byteCount: Int64) {
        self.fileURL = fileURL
        self.urlResponse = urlResponse
        self.byteCount = byteCount
    }
}
