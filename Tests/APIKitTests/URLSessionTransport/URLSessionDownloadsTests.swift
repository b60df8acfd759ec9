import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("URLSessionDownloads")
struct URLSessionDownloadsTests {
    /// A download task of a session nobody resumes: nothing is sent.
    private static func idleTask() -> (URLSession, URLSessionDownloadTask) {
        let session = URLSession(configuration: .ephemeral)
        return (session, session.downloadTask(with: URL(string: "http://127.0.0.1:9/never")!))
    }

    @Test("watching a download that has already ended: its timer is cancelled and released, nothing reported")
    func watchAfterEnd() throws {
        let (session, task) = Self.idleTask()
        defer { session.invalidateAndCancel() }
        let downloads = URLSessionDownloads()
        let reports = Protected(0)
        let outcomes = Protected<[String]>([])
        downloads.register(
            task, to: URL(fileURLWithPath: "/nonexistent/file"), progress: { _ in reports.withLock { $0 += 1 } }
        ) { result in
            outcomes.withLock { $0.append("\(result.map { _ in "success" })") }
        }
        #expect(downloads.didComplete(task, error: URLError(.cancelled)))
        #expect(outcomes.value.count == 1)
        // The source made for the ended download is cancelled before it is activated, and then
        // released: libdispatch traps on the release of a source never activated.
        downloads.watch(task, reportingOn: OperationQueue())
        downloads.watch(task, reportingOn: OperationQueue())
        #expect(!downloads.didComplete(task, error: nil), "the download was ended once only")
        #expect(reports.value == 0)
        #expect(outcomes.value.count == 1)
    }
}
