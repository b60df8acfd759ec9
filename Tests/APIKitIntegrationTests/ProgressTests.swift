import APIKit
import APIKitTestSupport
import APIKitTestTime
import Testing

/// httpbin's `/bytes/{n}`: `n` random bytes, with a `Content-Length`.
struct RandomBytesRequest: Request, RequestConfiguration {
    @PathSegment("count") var count = 0

    var base = HTTPBin.baseURL
    var path = "bytes/{count}"
    var method: HTTPMethod = .get
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
}

/// Records the progress steps of one request, and any that came after its completion.
final class ProgressLog: Sendable {
    private let state = Protected<(steps: [TransferProgress], completed: Bool, late: Int)>(([], false, 0))

    var handler: @Sendable (TransferProgress) -> Void {
        { [state] progress in
            state.withLock { state in
                if state.completed { state.late += 1 }
                state.steps.append(progress)
            }
        }
    }

    func markCompleted() { state.withLock { $0.completed = true } }
    var steps: [TransferProgress] { state.withLock { $0.steps } }
    var late: Int { state.withLock { $0.late } }
}

/// Holds each request in `adapt`, without holding a thread, until `open` is recorded: the
/// transfer starts only once the test is ready for its first step.
struct GateInterceptor: AdaptingInterceptor {
    let open = CompletionProbe<Bool>()

    func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
        _ = await open.first()
        return urlRequest
    }
}

/// ~2 MB of numbered ASCII lines: cheap for httpbin to echo.
private func lines(megabytes: Int) -> Data {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(megabytes * 1024 * 1024)
    for line in 0..<(megabytes * 16_384) {
        bytes += Array(String(format: "%08d", line).utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "y"), count: 55)
        bytes.append(UInt8(ascii: "\n"))
    }
    return Data(bytes)
}

@Suite("Progress over HTTP", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct ProgressTests {
    let session = Session(transport: TestTransport.make())

    @Test("a ~2 MB multipart upload from disk reports increasing upload progress that ends at the body's length")
    func multipartUpload() async throws {
        let bytes = lines(megabytes: 2)
        let scratch = try ScratchDirectory("progress")
        defer { scratch.remove() }
        let file = try scratch.file("upload.txt", contents: bytes)
        let log = ProgressLog()
        let recorder = CompletionProbe<Result<MultipartEcho, RequestError>>()

        MultipartUploadRequest(file: .file(file)).perform(
            using: session, progress: log.handler,
            completion: recorder.handler { _ in log.markCompleted() })

        let result = try #require(await recorder.first(), "no completion within 120 s")
        let echo = try result.get()
        #expect(echo.files["file"]?.utf8.count == bytes.count)
        let sent = log.steps.map(\.bytesSent)
        #expect(sent.count > 1, "one step for 2 MB: \(sent)")
        #expect(sent == sent.sorted(), "upload progress went backwards")
        let last = try #require(log.steps.last)
        let total = try #require(last.expectedBytesToSend, "a multipart body's length is known")
        #expect(total > Int64(bytes.count))
        #expect(last.bytesSent == total)
        #expect(await recorder.released(), "the completion is still held")
        #expect(log.late == 0)
        #expect(recorder.count == 1)
    }

    @Test("cancelling an upload once progress shows it under way completes once, with .cancelled, and no step follows")
    func cancelUploadInFlight() async throws {
        let bytes = lines(megabytes: 4)
        let scratch = try ScratchDirectory("progress")
        defer { scratch.remove() }
        let file = try scratch.file("upload.txt", contents: bytes)
        let underway = CompletionProbe<TransferProgress>()
        let recorder = CompletionProbe<Result<MultipartEcho, RequestError>>()
        let progressReleased = ReleaseProbe()
        // The first step cancels the request while it holds the transport (URLSessionTransport's
        // serial delegate queue, AsyncHTTPClientTransport's progress lock), so that the upload
        // cannot finish in between, however loaded the machine. The gate starts the transfer only
        // once the handle is known, so that the first step can cancel it.
        let gate = GateInterceptor()
        let handle = Protected<RequestHandle?>(nil)

        let started = MultipartUploadRequest(file: .file(file)).perform(
            using: Session(transport: TestTransport.make(), interceptors: [gate]),
            progress: progressReleased.watch { progress in
                let isFirst = underway.count == 0
                underway.record(progress)
                if isFirst { handle.value?.cancel() }
            },
            completion: recorder.handler
        )
        handle.withLock { $0 = started }
        gate.open.record(true)

        let first = try #require(await underway.first(), "no upload progress within 120 s")
        let result = try #require(await recorder.first(), "no completion within 120 s")
        #expect(first.bytesSent > 0)
        #expect(result.failure?.stage == .cancelled)
        // once the transport lets go of the closures, neither can be called again
        #expect(await recorder.released(), "the completion is still held")
        #expect(await progressReleased.all(), "the progress closure is still held")
        #expect(recorder.count == 1)
        #expect(underway.count == 1, "a step was passed on after cancel()")
    }

    @Test(
        "a 100 000-byte download (httpbin caps /bytes at 100 KiB) reports increasing received bytes ending at the Content-Length"
    )
    func download() async throws {
        let log = ProgressLog()
        let data = try await RandomBytesRequest(count: 100_000).response(using: session, progress: log.handler)

        #expect(data.count == 100_000)
        let received = log.steps.map(\.bytesReceived)
        #expect(!received.isEmpty)
        #expect(received == received.sorted(), "download progress went backwards")
        let last = try #require(log.steps.last)
        #expect(last.bytesReceived == 100_000)
        #expect(last.expectedBytesToReceive == 100_000)
        #expect(log.steps.allSatisfy { $0.bytesSent == 0 }, "a GET sends no body")
    }

    @Test("the transport without progress, and an error status, go through the usual stages")
    func plainUse() async throws {
        let data = try await RandomBytesRequest(count: 10).response(using: session)
        #expect(data.count == 10)
        var missing = RandomBytesRequest(count: 1)
        missing.path = "status/404/{count}"
        let result: Result<Data, RequestError>
        do {
            result = .success(try await missing.response(using: session))
        } catch {
            result = .failure(error)
        }
        #expect(result.failure?.stage == .responseValidation)
    }
}
