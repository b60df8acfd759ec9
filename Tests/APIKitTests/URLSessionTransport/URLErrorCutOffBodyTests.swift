import Foundation
import Testing

@testable import APIKit

/// corelibs' report of a body cut off becomes the error the other transports report for it, so
/// that a retry policy sees one event one way; nothing else is renamed.
@Suite("URLError.cutOffBodyNamed: a cut body is a lost connection on every transport")
struct URLErrorCutOffBodyTests {
    /// What corelibs' data task reports for `/short-body` (1,000 bytes promised, 10 sent).
    static let corelibsCut = NSError(
        domain: NSURLErrorDomain, code: URLError.Code.unknown.rawValue,
        userInfo: [NSLocalizedDescriptionKey: "transfer closed with 990 bytes remaining to read"])

    @Test("corelibs' unknown error carrying libcurl's text becomes .networkConnectionLost, keeping its userInfo")
    func corelibsCutIsNamed() throws {
        let named = try #require(URLError.cutOffBodyNamed(Self.corelibsCut) as? URLError)
        #expect(named.code == .networkConnectionLost)
        #expect(named.localizedDescription.contains("990 bytes remaining"))
        #expect(RetryPolicy(maxAttempts: 2).retryDelay(after: .failure(named), method: .get, attempt: 1) != nil)
    }

    @Test(
        "any other error stays as it is",
        arguments: [
            NSError(domain: NSURLErrorDomain, code: URLError.Code.unknown.rawValue),
            NSError(
                domain: NSURLErrorDomain, code: URLError.Code.timedOut.rawValue,
                userInfo: [NSLocalizedDescriptionKey: "transfer closed with 990 bytes remaining to read"]),
            NSError(
                domain: "Other", code: URLError.Code.unknown.rawValue,
                userInfo: [NSLocalizedDescriptionKey: "transfer closed with 990 bytes remaining to read"]),
            NSError(
                domain: NSURLErrorDomain, code: URLError.Code.unknown.rawValue,
                userInfo: [NSLocalizedDescriptionKey: "SSL certificate problem"]),
        ])
    func othersUnchanged(error: NSError) {
        let kept = URLError.cutOffBodyNamed(error) as NSError
        #expect(kept.domain == error.domain)
        #expect(kept.code == error.code)
    }
}
