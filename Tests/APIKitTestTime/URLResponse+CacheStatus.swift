#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking  // URLResponse, on Linux
#else
    public import Foundation
#endif

extension URLResponse {
    /// Whether an `HTTPCache` built this response from what it stored, as a caller tells it from
    /// the `Cache-Status` header (RFC 9211): its last member is APIKit's and says `hit`,
    /// `fwd-status=304`, `detail=stale-if-error` or `collapsed`.
    ///
    /// ```swift
    /// #expect(urlResponse.isFromHTTPCache)
    /// ```
    public var isFromHTTPCache: Bool {
        guard let status = (self as? HTTPURLResponse)?.value(forHTTPHeaderField: "Cache-Status"),
            let last = status.split(separator: ",").last
        else { return false }
        let parameters = last.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first == "APIKit" else { return false }
        return parameters.contains("hit") || parameters.contains("fwd-status=304")
            || parameters.contains("detail=stale-if-error") || parameters.contains("collapsed")
    }
}
