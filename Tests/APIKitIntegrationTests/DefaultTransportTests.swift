@_spi(Testing) import APIKit
import APIKitTestSupport
import Foundation
import Testing

/// httpbin's `/drip`: `count` bytes (`*`), one every `duration / count` seconds, with a
/// `Content-Length`: a body that arrives in several pieces however fast the machine.
///
/// A client the whole suite keeps busy (800 tests at once on two cores) may not read for a while
/// and then get several bytes in one go; ``paced`` leaves two seconds between bytes.
struct DripRequest: Request, RequestConfiguration {
    @Query("numbytes") var count = 5
    @Query("duration") var duration = 1.0
    @Query("delay") var delay = 0

    var base = HTTPBin.baseURL
    var path = "drip"
    var method: HTTPMethod = .get
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }

    /// Five bytes, one every two seconds. Real time: the subject is progress seen while the
    /// body arrives, and a client starved for half a second (seen beside a TSan build under
    /// stress-ng) read the whole of a 0.5 s-paced body at once; two seconds leaves it four
    /// chances of more than ten times what it needs.
    static let paced = DripRequest(duration: 10)
}

/// A file of `megabytes` MiB of lines in `scratch`.
private func linesFile(megabytes: Int, in scratch: ScratchDirectory) throws -> (file: URL, size: Int) {
    let line = Array(String(repeating: "z", count: 63).utf8) + [UInt8(ascii: "\n")]
    var bytes: [UInt8] = []
    bytes.reserveCapacity(megabytes << 20)
    for _ in 0..<(megabytes << 14) { bytes += line }
    return (try scratch.file("upload.txt", contents: Data(bytes)), bytes.count)
}

/// `Session()` without a transport: ``URLSessionTransport/shared``, which watches its transfers.
/// Each test tells live progress from what a transport that cannot watch reports (the totals,
/// in two steps, once the transfer has ended): a download paced by the server shows a step
/// part-way through; an upload, one step for each piece corelibs hands to libcurl. (Over
/// loopback an upload is handed over faster than the delegate queue reports it, and corelibs
/// reads the total sent when the step is delivered, so every step may show the whole body.)
@Suite(
    "Session()'s default transport reports progress as the transfer runs",
    .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason),
    .urlSessionOnly("Session()'s default transport is URLSessionTransport.shared in both packages"))
struct DefaultTransportProgressTests {
    @Test("a 2 MiB multipart upload from disk through Session() reports each piece sent, then completes once")
    func multipartUpload() async throws {
        let scratch = try ScratchDirectory("default")
        defer { scratch.remove() }
        let (file, size) = try linesFile(megabytes: 2, in: scratch)
        let log = ProgressLog()
        let recorder = CompletionProbe<Result<MultipartEcho, RequestError>>()

        MultipartUploadRequest(file: .file(file)).perform(
            using: Session(), progress: log.handler,
            completion: recorder.handler { _ in log.markCompleted() })

        let result = try #require(await recorder.first(), "no completion within 120 s")
        #expect(try result.get().files["file"]?.utf8.count == size)
        let sent = log.steps.map(\.bytesSent)
        let total = try #require(log.steps.last?.expectedBytesToSend, "a multipart body's length is known")
        #expect(sent.count > 2, "not one step per piece: \(sent)")
        #expect(sent == sent.sorted(), "upload progress went backwards")
        #expect(sent.last == total)
        #expect(await recorder.released(), "the completion is still held")
        #expect(log.late == 0, "a step came after the completion")
        #expect(recorder.count == 1)
    }

    @Test("a ~1.6 MB form body in memory through Session() reports each piece sent, ending at its length")
    func inMemoryUpload() async throws {
        let log = ProgressLog()
        let request = LargeFormRequest()

        let echo = try await request.response(using: Session(), progress: log.handler)

        #expect(echo.field("big") == .one(request.big))
        let sent = log.steps.map(\.bytesSent)
        let total = try #require(log.steps.last?.expectedBytesToSend)
        #expect(total > 1_000_000)
        #expect(sent.count > 2, "not one step per piece: \(sent)")
        #expect(sent == sent.sorted())
        #expect(sent.last == total)
        #expect(log.late == 0)
    }

    @Test("a body dripped in 5 pieces through Session() reports each piece as it arrives")
    func dataDownload() async throws {
        let log = ProgressLog()
        let recorder = CompletionProbe<Result<Data, RequestError>>()

        DripRequest.paced.perform(
            using: Session(), progress: log.handler, completion: recorder.handler { _ in log.markCompleted() })

        let result = try #require(await recorder.first(timeout: 120), "no completion within 120 s")
        #expect(try result.get() == Data("*****".utf8))
        let received = log.steps.map(\.bytesReceived)
        #expect(received.contains { $0 > 0 && $0 < 5 }, "no step part-way through: \(received)")
        #expect(received == received.sorted())
        #expect(log.steps.last?.bytesReceived == 5)
        #expect(log.steps.last?.expectedBytesToReceive == 5)
        #expect(await recorder.released(), "the completion is still held")
        #expect(log.late == 0)
        #expect(recorder.count == 1)
    }

    @Test("a download to disk through Session() reports the bytes written as they arrive")
    func fileDownload() async throws {
        let scratch = try ScratchDirectory("default")
        defer { scratch.remove() }
        let destination = scratch.file("drip.bin")
        let log = ProgressLog()

        let download = try await DripRequest.paced.download(to: destination, using: Session(), progress: log.handler)

        #expect(download.byteCount == 5)
        #expect(try Data(contentsOf: destination) == Data("*****".utf8))
        let received = log.steps.map(\.bytesReceived)
        #expect(received.contains { $0 > 0 && $0 < 5 }, "no step part-way through: \(received)")
        #expect(received == received.sorted())
        #expect(received.last == 5)
        #expect(log.late == 0)
    }
}

/// A `URLSession` passed as the transport: the spec's `perform(session:)` road, for a session
/// APIKit does not own.
@Suite(
    "A URLSession passed as the transport",
    .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason),
    .urlSessionOnly("perform(session:) takes a URLSession"))
struct URLSessionAsTransportTests {
    @Test("perform(session: URLSession.shared) sends through it and completes once, on its delegate queue")
    func performThroughShared() async throws {
        let recorder = CompletionProbe<Result<Echo<NoJSONBody>, RequestError>>()
        let onDelegateQueue = CompletionProbe<Bool>()

        SingleQueryRequest("spec").perform(
            session: URLSession.shared,
            completion: recorder.handler { _ in
                onDelegateQueue.record(OperationQueue.current === URLSession.shared.delegateQueue)
            })

        let result = try #require(await recorder.first(), "no completion within 120 s")
        #expect(try result.get().arg("v") == .one("spec"))
        #expect(await onDelegateQueue.first(timeout: 120) == true)
        #expect(await recorder.released(), "the completion is still held")
        #expect(recorder.count == 1)
    }

    @Test("progress through URLSession.shared: the totals in two steps, just before the only completion")
    func progressThroughShared() async throws {
        let log = ProgressLog()
        let recorder = CompletionProbe<Result<Echo<NoJSONBody>, RequestError>>()
        let request = LargeFormRequest()

        request.perform(
            using: Session(transport: URLSession.shared.asTransport), progress: log.handler,
            completion: recorder.handler { _ in log.markCompleted() })

        let result = try #require(await recorder.first(timeout: 120), "no completion within 120 s")
        #expect(try result.get().field("big") == .one(request.big))
        let steps = log.steps
        try #require(steps.count == 2, "\(steps)")
        let sent = try #require(steps[0].expectedBytesToSend)
        #expect(steps[0] == TransferProgress(bytesSent: sent, expectedBytesToSend: sent))
        #expect(steps[1].bytesSent == sent)
        #expect(steps[1].bytesReceived > 0)
        #expect(steps[1].expectedBytesToReceive == steps[1].bytesReceived)
        #expect(await recorder.released(), "the completion is still held")
        #expect(log.late == 0)
        #expect(recorder.count == 1)
    }

    @Test("a failed transfer through URLSession.shared reports no progress and completes once")
    func failureThroughShared() async throws {
        let log = ProgressLog()
        let recorder = CompletionProbe<Result<Data, RequestError>>()
        var request = DripRequest()
        request.base = try HTTPBin.refusedURL()

        request.perform(
            using: Session(transport: URLSession.shared.asTransport), progress: log.handler,
            completion: recorder.handler)

        let result = try #require(await recorder.first(timeout: 120), "no completion within 120 s")
        #expect(result.failure?.stage == .transport)
        #expect(await recorder.released(), "the completion is still held")
        #expect(log.steps.isEmpty)
        #expect(recorder.count == 1)
    }
}
