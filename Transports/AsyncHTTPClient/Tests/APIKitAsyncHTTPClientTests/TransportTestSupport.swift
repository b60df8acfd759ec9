import APIKit
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// What this transport's own tests add to the integration suite's helpers (servers, requests,
// `send(_:through:cancelAfter:timeout:)`, `ScratchDirectory`, `SHA256`), which they share: both
// are compiled into one test target (see Package.swift).

extension FaultServer {
    /// The fault server's URL; a discard-port placeholder when the suites are disabled anyway.
    static var baseURL: URL { url ?? URL(string: "http://127.0.0.1:9")! }
}

extension LengthServer {
    /// The Content-Length server's URL; a discard-port placeholder when disabled anyway.
    static var baseURL: URL { url ?? URL(string: "http://127.0.0.1:9")! }
}

/// The `URLError` code of a failed result; `nil` when it succeeded or failed otherwise.
func urlErrorCode(_ result: Result<TransportResponse, any Error>) -> URLError.Code? {
    guard case .failure(let error) = result else { return nil }
    return (error as? URLError)?.code
}

/// The spool files URLSessionTransport would write (`APIKit-upload-*`) in the temporary
/// directory: this transport streams bodies from disk and must never leave one.
func temporarySpoolFiles() -> Set<String> {
    let names =
        (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
    return Set(names.filter { $0.hasPrefix("APIKit-upload-") })
}
