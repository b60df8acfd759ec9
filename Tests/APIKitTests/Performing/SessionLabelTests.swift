import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

/// The `session:` spellings a `Session` was passed with before `using:`, reached through a
/// protocol: its requirements are not deprecated, so calling them raises no warning, and each
/// witness is deprecated, so the deprecated calls inside it raise none either. The test target
/// therefore builds without warnings while still calling the old spellings.
private protocol EarlierSessionSpellings: Sendable {
    func response<R: Request>(_ request: R, session: Session) async throws(RequestError) -> R.Response
    func response<R: Request>(
        _ request: R, session: Session, progress: @escaping ProgressHandler
    ) async throws(RequestError) -> R.Response
    func stream<R: Request>(_ request: R, session: Session) -> ResponseStream
    func download<R: Request>(
        _ request: R, to destination: URL, session: Session
    ) async throws(RequestError) -> DownloadResponse
}

private struct EarlierSpellings: EarlierSessionSpellings {
    @available(*, deprecated)
    func response<R: Request>(_ request: R, session: Session) async throws(RequestError) -> R.Response {
        try await request.response(session: session)
    }

    @available(*, deprecated)
    func response<R: Request>(
        _ request: R, session: Session, progress: @escaping ProgressHandler
    ) async throws(RequestError) -> R.Response {
        try await request.response(session: session, progress: progress)
    }

    @available(*, deprecated)
    func stream<R: Request>(_ request: R, session: Session) -> ResponseStream {
        request.stream(session: session)
    }

    @available(*, deprecated)
    func download<R: Request>(
        _ request: R, to destination: URL, session: Session
    ) async throws(RequestError) -> DownloadResponse {
        try await request.download(to: destination, session: session)
    }
}

@Suite("using: passes a Session; session: is left to perform's URLSession")
struct SessionLabelTests {
    /// The old spellings, called without a deprecation warning.
    private let earlier: any EarlierSessionSpellings = EarlierSpellings()

    /// A session whose stub answers `body`: a result with that body came through it, not
    /// through ``Session/shared`` (which would try the network at `stubBase`).
    func session(answering body: String) -> Session {
        Session(transport: StubTransport(.success(body: body)))
    }

    func text(of stream: ResponseStream) async throws -> String {
        var text = ""
        for try await chunk in stream { text += String(decoding: chunk, as: UTF8.self) }
        return text
    }

    @Test("response(using:), with and without progress, sends through the given session")
    func responseUsing() async throws {
        #expect(try await ProbeRequest(base: stubBase).response(using: session(answering: "new")) == "new")

        let steps = Protected(0)
        let value = try await ProbeRequest(base: stubBase).response(
            using: session(answering: "new, with progress"), progress: { _ in steps.withLock { $0 += 1 } })
        #expect(value == "new, with progress")
        #expect(steps.value > 0, "the progress handler was never called")
    }

    @Test("stream(using:) and download(to:using:) send through the given session")
    func streamAndDownloadUsing() async throws {
        #expect(try await text(of: StreamedRequest().stream(using: session(answering: "streamed"))) == "streamed")

        let directory = try makeDownloadDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("body.txt")
        let download = try await StreamedRequest().download(to: destination, using: session(answering: "saved"))
        #expect(download.fileURL == destination)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "saved")
    }

    @Test("the deprecated session: spellings still compile and forward to the using: ones")
    func deprecatedSpellingsForward() async throws {
        #expect(try await earlier.response(ProbeRequest(base: stubBase), session: session(answering: "old")) == "old")

        let steps = Protected(0)
        let value = try await earlier.response(
            ProbeRequest(base: stubBase), session: session(answering: "old, with progress"),
            progress: { _ in steps.withLock { $0 += 1 } })
        #expect(value == "old, with progress")
        #expect(steps.value > 0, "the progress handler was never called")

        let stream = earlier.stream(StreamedRequest(), session: session(answering: "old stream"))
        #expect(try await text(of: stream) == "old stream")

        let directory = try makeDownloadDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("body.txt")
        let download = try await earlier.download(
            StreamedRequest(), to: destination, session: session(answering: "old download"))
        #expect(download.fileURL == destination)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "old download")
    }

    @Test("the failure a deprecated spelling throws is the using: one's RequestError")
    func deprecatedSpellingThrowsTheSameError() async {
        let failing = Session(transport: StubTransport(.success(status: 503, body: "down")))
        do {
            _ = try await earlier.response(ProbeRequest(base: stubBase), session: failing)
            Issue.record("expected a failure")
        } catch {
            #expect(error.statusCode == 503)
            #expect(error.body == Data("down".utf8))
        }
    }
}
