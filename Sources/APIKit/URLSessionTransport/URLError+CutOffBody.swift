import Foundation

extension URLError {
    /// `error`, with corelibs Foundation's report of a body cut off before the length its head
    /// announced made the error Apple's URLSession and `AsyncHTTPClientTransport` report for it:
    /// `.networkConnectionLost`. Any other error is returned as it is.
    ///
    /// corelibs reports the cut as `URLError(.unknown)` carrying libcurl's text, "transfer
    /// closed with N bytes remaining to read". One error for one event, so that a
    /// ``RetryPolicy`` retries a cut body on every transport and every road alike (a download
    /// reports it as ``DownloadError/incompleteBody(received:expected:)`` either way).
    static func cutOffBodyNamed(_ error: any Error) -> any Error {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain, nsError.code == URLError.Code.unknown.rawValue,
            let text = nsError.userInfo[NSLocalizedDescriptionKey] as? String,
            text.hasPrefix("transfer closed with"), text.hasSuffix("bytes remaining to read")
        else { return error }
        return URLError(.networkConnectionLost, userInfo: nsError.userInfo)
    }
}
