/// What a ``Transport`` downloaded: the response, and the file its body was written to.
///
/// ```swift
/// completion(.success(TransportDownload(fileURL: file, urlResponse: httpResponse)))
/// ```
public struct TransportDownload: Sendable {
    /// The file holding the whole body: the `fileURL` given to
    /// ``Transport/download(_:to:progress:completion:)``.
    public var fileURL: URL
    /// The response; an `HTTPURLResponse` for HTTP.
    public var urlResponse: URLResponse

    /// Creates a transport download from the file holding the body and the response.
    ///
    /// - Parameters:
    ///   - fileURL: The file holding the whole body.
    ///   - urlResponse: The response; an `HTTPURLResponse` for HTTP.
    public init(fileURL: URL, urlResponse: URLResponse) {
        self.fileURL = fileURL
        self.urlResponse = urlResponse
    }
}
