import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("using: passes a Session to every sending call; session: is the spec perform's URLSession")
struct SessionLabelTests {
    /// A session whose stub answers `body`: a result with that body came through it, not
    /// through a default `Session()` (which would try the network at `stubBase`).
    func session(answering body: String) -> Session {
        Session(transport: StubTransport { _ in .success(body: body) })
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

    @Test("perform(using:), with and without progress, sends through the given session")
    func performUsing() async throws {
        let probe = CompletionProbe<Result<String, RequestError>>()
        ProbeRequest(base: stubBase).perform(using: session(answering: "called back"), completion: probe.handler)
        #expect(try await probe.first()?.get() == "called back")

        let steps = Protected(0)
        let withProgress = CompletionProbe<Result<String, RequestError>>()
        ProbeRequest(base: stubBase).perform(
            using: session(answering: "called back, with progress"), progress: { _ in steps.withLock { $0 += 1 } },
            completion: withProgress.handler)
        #expect(try await withProgress.first()?.get() == "called back, with progress")
        #expect(steps.value > 0, "the progress handler was never called")
    }

    @Test("stream(using:) and download(to:using:) send through the given session")
    func streamAndDownloadUsing() async throws {
        #expect(try await text(of: StreamedRequest().stream(using: session(answering: "streamed"))) == "streamed")

        let scratch = try ScratchDirectory("download")
        defer { scratch.remove() }
        let directory = scratch.url
        let destination = directory.appendingPathComponent("body.txt")
        let download = try await StreamedRequest().download(to: destination, using: session(answering: "saved"))
        #expect(download.fileURL == destination)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "saved")
    }
}
