import APIKitTestSupport
import APIKitTestTime
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

@Suite("Resumable downloads: a failed download keeps its partial file; resumingFrom fetches the rest")
struct ResumableDownloadTests {
    /// Removed, with whatever the test left in it, when the test ends.
    let scratch: ScratchDirectory
    let directory: URL
    let destination: URL

    init() throws {
        scratch = try ScratchDirectory("download")
        directory = scratch.url
        destination = directory.appendingPathComponent("body.bin")
    }

    /// The headers of each request a transport was sent, in order.
    final class Seen: Sendable {
        let ranges = Protected<[(range: String?, ifRange: String?)]>([])

        func record(_ request: URLRequest) {
            ranges.append(
                (request.value(forHTTPHeaderField: "Range"), request.value(forHTTPHeaderField: "If-Range")))
        }
    }

    /// A download of `0123456789` (ETag `"v1"`) cut off after `01234`: the resume data it left.
    func interrupted() async throws -> DownloadResumeData {
        let session = Session(
            transport: StubTransport { _ in
                .stream(headers: ["Content-Length": "10", "ETag": #""v1""#], chunks: ["01234"])
            })
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session, resumable: true)
        }
        guard case .transportFailed(DownloadError.incompleteBody, _) = error, let resume = error?.downloadResumeData
        else {
            Issue.record("expected incompleteBody with resume data, got \(String(describing: error))")
            throw CancellationError()
        }
        return resume
    }

    @Test("cut after 5 bytes, kept as a hidden partial; resumed with Range and If-Range; the 206 completes the file")
    func cutThenResume() async throws {
        let resume = try await interrupted()
        #expect(resume.bytesReceived == 5)
        #expect(resume.validator == #""v1""#)
        #expect(resume.partialFileURL != destination)
        #expect(resume.partialFileURL.lastPathComponent.hasPrefix(".body.bin."))
        #expect(try Data(contentsOf: resume.partialFileURL) == Data("01234".utf8))
        #expect(!FileManager.default.fileExists(atPath: destination.path))

        let seen = Seen()
        let steps = Protected<[TransferProgress]>([])
        let transport = StubTransport { request in
            seen.record(request)
            return .stream(
                status: 206, headers: ["Content-Range": "bytes 5-9/10", "Content-Length": "5", "ETag": #""v1""#],
                chunks: ["567", "89"])
        }
        let download = try await StreamedRequest().download(
            to: destination, using: Session(transport: transport), resumingFrom: resume
        ) { steps.append($0) }
        #expect(seen.ranges.value.map(\.range) == ["bytes=5-"])
        #expect(seen.ranges.value.map(\.ifRange) == [#""v1""#])
        #expect(download.byteCount == 10)
        #expect((download.urlResponse as? HTTPURLResponse)?.statusCode == 206)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "0123456789")
        #expect(steps.value.map(\.bytesReceived) == [5, 8, 10])
        #expect(steps.value.allSatisfy { $0.expectedBytesToReceive == 10 })
        #expect(try scratch.names() == ["body.bin"])
    }

    struct Failure: Decodable, Equatable {
        let error: String
    }

    @Test("a rejected status: the error body, decoded; no resume data, and nothing written")
    func rejectedFirstAttempt() async throws {
        var session = Session(
            transport: StubTransport { _ in .stream(status: 404, chunks: [#"{"error":"#, #""gone"}"#]) })
        session.errorBodyDecoder = .json(Failure.self)
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session, resumable: true)
        }
        guard case .unacceptableStatusCode(404, let body, _, _)? = error else {
            Issue.record("expected unacceptableStatusCode(404), got \(String(describing: error))")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == #"{"error":"gone"}"#)
        #expect((error?.errorBody as? Failure) == Failure(error: "gone"))
        #expect(error?.downloadResumeData == nil)
        #expect(try scratch.names().isEmpty)
    }

    @Test("a rejected status on a resumed attempt keeps the partial file, untouched, and its resume data")
    func rejectedResumedAttempt() async throws {
        let resume = try await interrupted()
        let session = Session(transport: StubTransport { _ in .stream(status: 503, chunks: ["busy"]) })
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session, resumingFrom: resume)
        }
        guard case .unacceptableStatusCode(503, let body, _, _)? = error else {
            Issue.record("expected unacceptableStatusCode(503), got \(String(describing: error))")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == "busy")
        let kept = try #require(error?.downloadResumeData)
        #expect(kept.partialFileURL == resume.partialFileURL)
        #expect(kept.bytesReceived == 5)
        #expect(try Data(contentsOf: kept.partialFileURL) == Data("01234".utf8))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        // the error body's own file is gone: the partial file is all that is left
        #expect(try scratch.names() == [kept.partialFileURL.lastPathComponent])
    }

    @Test("a 503 on a resumed attempt, retried: its body goes to a file of its own, the retry resumes the partial file")
    func retriedRejectionResumes() async throws {
        let resume = try await interrupted()
        let seen = Seen()
        let sent = Protected(0)
        let transport = StubTransport { request in
            seen.record(request)
            let attempt = sent.withLock { count -> Int in
                count += 1
                return count
            }
            return attempt == 1
                ? .stream(status: 503, headers: ["Content-Length": "4"], chunks: ["busy"])
                : .stream(
                    status: 206, headers: ["Content-Range": "bytes 5-9/10", "Content-Length": "5"], chunks: ["56789"])
        }
        let session = Session(transport: transport, retryPolicy: DownloadTests.immediateRetries)
        let download = try await StreamedRequest().download(to: destination, using: session, resumingFrom: resume)
        #expect(seen.ranges.value.map(\.range) == ["bytes=5-", "bytes=5-"])
        #expect(download.byteCount == 10)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "0123456789")
        #expect(try scratch.names() == ["body.bin"])
    }

    @Test("an error body cut off on a resumed attempt: the error carries the partial file it left untouched")
    func cutErrorBodyOnResume() async throws {
        let resume = try await interrupted()
        let session = Session(
            transport: StubTransport { _ in .stream(status: 503, headers: ["Content-Length": "10"], chunks: ["bu"]) })
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session, resumingFrom: resume)
        }
        guard case .transportFailed(DownloadError.incompleteBody, _)? = error else {
            Issue.record("expected incompleteBody, got \(String(describing: error))")
            return
        }
        // the error body's bytes are not the resource's: nothing of them is kept or resumed from
        #expect(error?.downloadResumeData == resume)
        #expect(try Data(contentsOf: resume.partialFileURL) == Data("01234".utf8))
        #expect(try scratch.names() == [resume.partialFileURL.lastPathComponent])
    }

    @Test("an error body cut off on a first resumable attempt: no resume data, and nothing left")
    func cutErrorBodyFirstAttempt() async throws {
        let session = Session(
            transport: StubTransport { _ in .stream(status: 503, headers: ["Content-Length": "10"], chunks: ["bu"]) })
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session, resumable: true)
        }
        guard case .transportFailed(DownloadError.incompleteBody, _)? = error else {
            Issue.record("expected incompleteBody, got \(String(describing: error))")
            return
        }
        #expect(error?.downloadResumeData == nil)
        #expect(try scratch.names().isEmpty)
    }

    /// Accepts every response: its `intercept(urlResponse:)` checks nothing.
    struct AnyStatusRequest: Request, RequestConfiguration {
        var base = stubBase
        var path = "events"
        var method: HTTPMethod { .get }
        var configuration: Self { self }
        var parser: RawDataParser { RawDataParser() }

        func intercept(urlResponse: URLResponse) throws {}
    }

    @Test("a 404 the request accepts, on a resumed attempt: its body is the download, and the partial file goes")
    func acceptedErrorStatusOnResume() async throws {
        let resume = try await interrupted()
        let session = Session(
            transport: StubTransport { _ in
                .stream(status: 404, headers: ["Content-Length": "9"], chunks: ["not ", "found"])
            })
        let download = try await AnyStatusRequest().download(to: destination, using: session, resumingFrom: resume)
        #expect((download.urlResponse as? HTTPURLResponse)?.statusCode == 404)
        #expect(download.byteCount == 9)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "not found")
        #expect(try scratch.names() == ["body.bin"])
    }

    @Test("a rejected body longer than 1 MiB: the error carries its first 1 MiB, and nothing is left")
    func longRejectedBody() async throws {
        let long = String(repeating: "x", count: (1 << 20) + 10)
        let session = Session(transport: StubTransport { _ in .stream(status: 404, chunks: [long]) })
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session, resumable: true)
        }
        #expect(error?.body?.count == 1 << 20)
        #expect(error?.downloadResumeData == nil)
        #expect(try scratch.names().isEmpty)
    }

    /// Counts the calls of its `intercept(urlResponse:)`.
    struct CountingRequest: Request, RequestConfiguration {
        let checks: Protected<Int>
        var base = stubBase
        var path = "events"
        var method: HTTPMethod { .get }
        var configuration: Self { self }
        var parser: RawDataParser { RawDataParser() }

        func intercept(urlResponse: URLResponse) throws {
            checks.withLock { $0 += 1 }
            try validateStatusCode(of: urlResponse)
        }
    }

    @Test("the request's intercept(urlResponse:) runs once per response, as on every road", arguments: [false, true])
    func responseHookOnce(resumable: Bool) async throws {
        let checks = Protected(0)
        let session = Session(
            transport: StubTransport { _ in .stream(headers: ["Content-Length": "3"], chunks: ["abc"]) })
        _ = try await CountingRequest(checks: checks).download(to: destination, using: session, resumable: resumable)
        #expect(checks.value == 1)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "abc")
    }

    @Test(
        "a 503 retried, then a 200: the hook judges only the response the chain returns, on both kinds of download",
        arguments: [false, true])
    func responseHookOncePerResponse(resumable: Bool) async throws {
        let checks = Protected(0)
        let sent = Protected(0)
        let session = Session(
            transport: StubTransport { _ in
                let attempt = sent.withLock { count -> Int in
                    count += 1
                    return count
                }
                return attempt == 1
                    ? .stream(status: 503, chunks: ["busy"])
                    : .stream(headers: ["Content-Length": "3"], chunks: ["abc"])
            },
            retryPolicy: DownloadTests.immediateRetries)
        _ = try await CountingRequest(checks: checks).download(to: destination, using: session, resumable: resumable)
        #expect(sent.value == 2)
        // after the chain, as on every road: the retry link took the 503 away before the hook ran
        #expect(checks.value == 1)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "abc")
    }

    @Test("a 200 instead of a 206 (range ignored, or the validator changed) restarts the same file from byte 0")
    func fullBodyRestarts() async throws {
        let resume = try await interrupted()
        let transport = StubTransport { request in
            // a server whose resource changed: the If-Range does not match, the whole new body comes
            request.value(forHTTPHeaderField: "If-Range") == #""v2""#
                ? .stream(status: 206, headers: ["Content-Range": "bytes 5-5/6"], chunks: ["!"])
                : .stream(headers: ["Content-Length": "3", "ETag": #""v2""#], chunks: ["new"])
        }
        let download = try await StreamedRequest().download(
            to: destination, using: Session(transport: transport), resumingFrom: resume)
        #expect(download.byteCount == 3)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "new")
        #expect(try scratch.names() == ["body.bin"])
    }

    @Test("a 206 that does not start where the partial file ends fails with contentRangeMismatch and removes it")
    func contentRangeMismatch() async throws {
        let resume = try await interrupted()
        let session = Session(
            transport: StubTransport { _ in
                .stream(status: 206, headers: ["Content-Range": "bytes 0-9/10"], chunks: ["0123456789"])
            },
            retryPolicy: DownloadTests.immediateRetries)
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session, resumingFrom: resume)
        }
        guard case .transportFailed(DownloadError.contentRangeMismatch(5, "bytes 0-9/10"), _) = error else {
            Issue.record("expected contentRangeMismatch, got \(String(describing: error))")
            return
        }
        #expect(error?.context.attempts == 1)  // a failed resume is not a lost connection: no retry
        #expect(error?.downloadResumeData == nil)
        #expect(try scratch.names().isEmpty)
    }

    @Test("a 416 fails with rangeNotSatisfiable, not as a rejected status, and removes the partial file")
    func rangeNotSatisfiable() async throws {
        let resume = try await interrupted()
        let session = Session(
            transport: StubTransport { _ in
                .stream(status: 416, headers: ["Content-Range": "bytes */5"], chunks: [String]())
            },
            retryPolicy: DownloadTests.immediateRetries)
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session, resumingFrom: resume)
        }
        guard case .transportFailed(DownloadError.rangeNotSatisfiable(bytesReceived: 5), _) = error else {
            Issue.record("expected rangeNotSatisfiable, got \(String(describing: error))")
            return
        }
        #expect(error?.context.attempts == 1)  // a failed resume is not a lost connection: no retry
        #expect(error?.downloadResumeData == nil)
        #expect(try scratch.names().isEmpty)
    }

    @Test("resume data whose partial file was deleted fails with partialFileUnusable before sending anything")
    func partialFileDeleted() async throws {
        let resume = try await interrupted()
        try FileManager.default.removeItem(at: resume.partialFileURL)
        let calls = Protected(0)
        let transport = StubTransport { _ in
            calls.withLock { $0 += 1 }
            return .stream(chunks: ["x"])
        }
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(
                to: destination, using: Session(transport: transport), resumingFrom: resume)
        }
        guard case .transportFailed(let underlying as DownloadError, _) = error,
            case .partialFileUnusable(let url, bytesReceived: 5) = underlying
        else {
            Issue.record("expected partialFileUnusable, got \(String(describing: error))")
            return
        }
        #expect(url == resume.partialFileURL)
        #expect("\(underlying)".contains("missing or shorter"))
        #expect(calls.value == 0)
        #expect(try scratch.names().isEmpty)
    }

    @Test("cancelled mid-body: throws cancelled with resume data, and the partial file stays")
    func cancelKeepsPartial() async throws {
        let ok = HTTPURLResponse(
            url: stubBase, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: [
                "Content-Length": "10", "Last-Modified": "Tue, 24 Nov 2026 10:00:00 GMT",
                "Date": "Tue, 24 Nov 2026 11:00:00 GMT",
            ])!
        let transport = ManualTransport(initial: [.response(ok), .data(Data("first".utf8))])
        let (written, writtenContinuation) = AsyncStream<Void>.makeStream()
        let task = Task { [destination] in
            try await StreamedRequest().download(to: destination, using: Session(transport: transport), resumable: true)
            { step in
                if step.bytesReceived > 0 { writtenContinuation.yield() }
            }
        }
        for await _ in written { break }
        task.cancel()
        let result = await task.result
        guard case .failure(let error as RequestError) = result, case .cancelled = error,
            let resume = error.downloadResumeData
        else {
            Issue.record("expected cancelled with resume data, got \(result)")
            return
        }
        #expect(resume.bytesReceived == 5)
        #expect(resume.validator == "Tue, 24 Nov 2026 10:00:00 GMT")
        #expect(try Data(contentsOf: resume.partialFileURL) == Data("first".utf8))
        try FileManager.default.removeItem(at: resume.partialFileURL)
        #expect(try scratch.names().isEmpty)
    }

    /// Cancels the task that runs it as it judges the response: a cancellation that comes once
    /// the body is complete, before the download is handed over.
    struct CancellingRequest: Request, RequestConfiguration {
        var base = stubBase
        var path = "events"
        var method: HTTPMethod { .get }
        var configuration: Self { self }
        var parser: RawDataParser { RawDataParser() }

        func intercept(urlResponse: URLResponse) throws {
            withUnsafeCurrentTask { $0?.cancel() }
            try validateStatusCode(of: urlResponse)
        }
    }

    @Test(
        "cancelled once the body is complete: a resumable download keeps the whole file, and its resume completes it",
        arguments: [false, true])
    func cancelAfterCompleteBody(resumable: Bool) async throws {
        let complete = StubTransport { _ in
            .stream(headers: ["Content-Length": "10", "ETag": #""v1""#], chunks: ["01234", "56789"])
        }
        // a task of its own: the request cancels the task it runs in
        let first = Task { [destination] in
            try await CancellingRequest().download(
                to: destination, using: Session(transport: complete), resumable: resumable)
        }
        var error: RequestError?
        if case .failure(let failure as RequestError) = await first.result { error = failure }
        guard case .cancelled = error else {
            Issue.record("expected cancelled, got \(String(describing: error))")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        guard resumable else {
            #expect(error?.downloadResumeData == nil)
            #expect(try scratch.names().isEmpty, "a download that is not resumable left a file")
            return
        }
        let resume = try #require(error?.downloadResumeData, "the complete body was not kept")
        #expect(resume.bytesReceived == 9)
        #expect(resume.validator == #""v1""#)
        #expect(try String(contentsOf: resume.partialFileURL, encoding: .utf8) == "0123456789")

        let seen = Seen()
        let rest = StubTransport { request in
            seen.record(request)
            return .stream(
                status: 206, headers: ["Content-Range": "bytes 9-9/10", "Content-Length": "1", "ETag": #""v1""#],
                chunks: ["9"])
        }
        let download = try await StreamedRequest().download(
            to: destination, using: Session(transport: rest), resumingFrom: resume)
        #expect(seen.ranges.value.map(\.range) == ["bytes=9-"])
        #expect(seen.ranges.value.map(\.ifRange) == [#""v1""#])
        #expect(download.byteCount == 10)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "0123456789")
        #expect(try scratch.names() == ["body.bin"])
    }

    @Test("a resumed download stopped before sending (an interceptor's adapt throws) still carries its resume data")
    func failureBeforeSendingKeepsResumeData() async throws {
        struct Refusing: AdaptingInterceptor {
            func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
                throw URLError(.userAuthenticationRequired)
            }
        }
        let resume = try await interrupted()
        let session = Session(transport: StubTransport { _ in .stream(chunks: ["x"]) }, interceptors: [Refusing()])
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session, resumingFrom: resume)
        }
        #expect(error?.stage == .requestInterceptor)
        #expect(error?.downloadResumeData == resume)
        #expect(try Data(contentsOf: resume.partialFileURL) == Data("01234".utf8))
    }

    @Test("a resumed attempt that fails before its response head keeps the partial file and its resume data")
    func failureBeforeHeadKeepsResumeData() async throws {
        let resume = try await interrupted()
        let session = Session(transport: StubTransport { _ in .failure(URLError(.cannotConnectToHost)) })
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session, resumingFrom: resume)
        }
        guard case .transportFailed(let underlying as URLError, _)? = error else {
            Issue.record("expected transportFailed(URLError), got \(String(describing: error))")
            return
        }
        #expect(underlying.code == .cannotConnectToHost)
        #expect(error?.downloadResumeData == resume)
        #expect(try Data(contentsOf: resume.partialFileURL) == Data("01234".utf8))
        #expect(try scratch.names() == [resume.partialFileURL.lastPathComponent])
    }

    @Test("a body that ends normally short of its Content-Length: incompleteBody, and the partial file to resume")
    func endedShort() async throws {
        let head = HTTPURLResponse(
            url: stubBase, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Length": "10", "ETag": #""v1""#])!
        // the transport reports a clean end after 5 of the 10 bytes
        let transport = ScriptedStreamTransport([[.response(head), .data(Data("01234".utf8)), .finished]])
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: Session(transport: transport), resumable: true)
        }
        guard case .transportFailed(DownloadError.incompleteBody(let received, let expected), _)? = error else {
            Issue.record("expected incompleteBody, got \(String(describing: error))")
            return
        }
        #expect((received, expected) == (5, 10))
        let resume = try #require(error?.downloadResumeData)
        #expect(resume.bytesReceived == 5)
        #expect(resume.validator == #""v1""#)
        #expect(try Data(contentsOf: resume.partialFileURL) == Data("01234".utf8))
    }

    @Test(
        "a disk that fails mid-body: fileWriteFailed, the transfer cancelled, the bytes written kept to resume",
        .enabled(if: FullDisk.isAvailable, "needs /dev/full and /proc (Linux)"))
    func diskFailsMidBody() async throws {
        let head = HTTPURLResponse(
            url: stubBase, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Length": "10", "ETag": #""v1""#])!
        let transport = ManualTransport(initial: [.response(head), .data(Data("01234".utf8))])
        let session = Session(transport: transport)
        let call = Task { try await StreamedRequest().download(to: destination, using: session, resumable: true) }
        // the partial file holds the first chunk: its descriptor now writes to a full disk
        let file = try #require(await FullDisk.downloadFile(in: directory, holding: 5))
        try FullDisk.fill(file)
        transport.push([.data(Data("56789".utf8))])
        let error = await #expect(throws: RequestError.self) { try await call.value }
        guard case .transportFailed(DownloadError.fileWriteFailed(let named, _), _)? = error else {
            Issue.record("expected fileWriteFailed, got \(String(describing: error))")
            return
        }
        #expect(named.lastPathComponent == file.lastPathComponent)
        #expect(transport.cancels == 1)
        let resume = try #require(error?.downloadResumeData)
        #expect(resume.bytesReceived == 5)
        #expect(try Data(contentsOf: resume.partialFileURL) == Data("01234".utf8))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test("a RetryPolicy retry of a resumable download resumes from the partial file")
    func retryResumes() async throws {
        let seen = Seen()
        let transport = StubTransport { request in
            seen.record(request)
            return request.value(forHTTPHeaderField: "Range") == nil
                ? .stream(headers: ["Content-Length": "6", "ETag": #""e""#], chunks: ["abc"])
                : .stream(
                    status: 206, headers: ["Content-Range": "bytes 3-5/6", "Content-Length": "3"], chunks: ["def"])
        }
        let session = Session(transport: transport, retryPolicy: RetryPolicy(maxAttempts: 2)).timed(by: WaitRecorder())
        let download = try await StreamedRequest().download(to: destination, using: session, resumable: true)
        #expect(seen.ranges.value.map(\.range) == [nil, "bytes=3-"])
        #expect(download.byteCount == 6)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "abcdef")
        #expect(try scratch.names() == ["body.bin"])
    }

    @Test("without the opt-in, a cut-off body carries no resume data and leaves nothing")
    func notResumable() async throws {
        let session = Session(
            transport: StubTransport { _ in
                .stream(headers: ["Content-Length": "10", "ETag": #""v1""#], chunks: ["01234"])
            })
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session)
        }
        #expect(error?.downloadResumeData == nil)
        #expect(try scratch.names().isEmpty)
    }

    @Test("the article's resuming example (Streaming and downloads): the cut download resumes to the whole body")
    func readmeExample() async throws {
        let calls = Protected(0)
        let api = Session(
            transport: StubTransport { request in
                calls.withLock { $0 += 1 }
                return request.value(forHTTPHeaderField: "Range") == "bytes=3-"
                    ? .stream(status: 206, headers: ["Content-Range": "bytes 3-5/6"], chunks: ["def"])
                    : .stream(headers: ["Content-Length": "6", "ETag": #""r""#], chunks: ["abc"])
            })
        let request = StreamedRequest()
        do {
            _ = try await request.download(to: destination, using: api, resumable: true)
        } catch {
            guard let resume = error.downloadResumeData else { throw error }
            // later, or after the network is back: only the missing bytes are fetched
            _ = try await request.download(to: destination, using: api, resumingFrom: resume)
        }
        #expect(calls.value == 2)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "abcdef")
    }

    @Test("the completion forms: a cut download reports resume data; resumingFrom completes the file")
    func completionForms() async throws {
        let api = Session(
            transport: StubTransport { request in
                request.value(forHTTPHeaderField: "Range") == "bytes=2-"
                    ? .stream(status: 206, headers: ["Content-Range": "bytes 2-3/4"], chunks: ["cd"])
                    : .stream(headers: ["Content-Length": "4", "ETag": #""c""#], chunks: ["ab"])
            })
        let failed = await withCheckedContinuation { continuation in
            StreamedRequest().download(to: destination, using: api, resumable: true) {
                continuation.resume(returning: $0)
            }
        }
        guard case .failure(let error) = failed, let resume = error.downloadResumeData else {
            Issue.record("expected a failure with resume data, got \(failed)")
            return
        }
        let resumed = await withCheckedContinuation { continuation in
            StreamedRequest().download(to: destination, using: api, resumingFrom: resume) {
                continuation.resume(returning: $0)
            }
        }
        #expect(try resumed.get().byteCount == 4)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "abcd")
        #expect(try scratch.names() == ["body.bin"])
    }

    @Test("Content-Range parsing: the first and last byte, or nil for one that is not valid (RFC 9110 §14.4)")
    func contentRangeParsing() {
        #expect(DownloadFile.contentRange("bytes 5-9/10").map { [$0.first, $0.last] } == [5, 9])
        #expect(DownloadFile.contentRange(" bytes 0-0/* ").map { [$0.first, $0.last] } == [0, 0])
        for invalid in [
            "bytes */10", "items 5-9/10", "bytes 5-2/10", "bytes 5-9/7", "bytes 5-9/9", "bytes 5-9", "bytes 5-/10",
            "bytes +5-9/10", "bytes 5-9/-1", "bytes 5-9/10/11", "bytes 99999999999999999999-9/10", "",
        ] {
            #expect(DownloadFile.contentRange(invalid) == nil, "\(invalid)")
        }
    }

    @Test("a Content-Length of Int64.max on a resumed 206 fails as a short body, without a crash")
    func hugeLengthOnResume() async throws {
        let resume = try await interrupted()
        let session = Session(
            transport: StubTransport { _ in
                .stream(
                    status: 206, headers: ["Content-Range": "bytes 5-9/10", "Content-Length": "\(Int64.max)"],
                    chunks: ["56789"])
            })
        let steps = Locked<[TransferProgress]>([])
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(
                to: destination, using: session, resumingFrom: resume,
                progress: { step in steps.withLock { $0.append(step) } })
        }
        guard case .transportFailed(DownloadError.incompleteBody(received: 10, expected: .max), _) = error else {
            Issue.record("expected incompleteBody(10, Int64.max), got \(String(describing: error))")
            return
        }
        #expect(steps.withLock { $0.first?.expectedBytesToReceive } == .max)
    }

    @Test(
        "a 206 is held to its Content-Range: one without a Content-Length that ends early, or an invalid range, fails and keeps the partial file"
    )
    func rangeHoldsTheBody() async throws {
        let resume = try await interrupted()
        let short = Session(
            transport: StubTransport { _ in
                .stream(status: 206, headers: ["Content-Range": "bytes 5-9/10"], chunks: ["56"])
            })
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: short, resumingFrom: resume)
        }
        guard case .transportFailed(DownloadError.incompleteBody(received: 7, expected: 10), _) = error else {
            Issue.record("expected incompleteBody(7, 10), got \(String(describing: error))")
            return
        }
        let kept = try #require(error?.downloadResumeData, "the partial file is kept to resume")
        #expect(kept.bytesReceived == 7)
        #expect(!FileManager.default.fileExists(atPath: destination.path))

        let invalid = Session(
            transport: StubTransport { _ in
                .stream(
                    status: 206, headers: ["Content-Range": "bytes 7-9/8", "Content-Length": "3"], chunks: ["789"])
            })
        let rejected = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: invalid, resumingFrom: kept)
        }
        guard case .transportFailed(DownloadError.contentRangeMismatch(7, "bytes 7-9/8"), _) = rejected else {
            Issue.record("expected contentRangeMismatch, got \(String(describing: rejected))")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    /// A 200 response with `headers`.
    func response(_ headers: [String: String]) -> HTTPURLResponse {
        HTTPURLResponse(url: stubBase, statusCode: 200, httpVersion: nil, headerFields: headers)!
    }

    @Test("If-Range per RFC 9110: a strong ETag; a weak one is no validator, and no date stands in for it")
    func entityTags() {
        #expect(DownloadResumeData.validator(of: response(["ETag": #""x""#])) == #""x""#)
        let weak = response([
            "ETag": #"W/"x""#, "Last-Modified": "Mon, 23 Nov 2026 10:00:00 GMT",
            "Date": "Thu, 26 Nov 2026 10:00:00 GMT",
        ])
        #expect(DownloadResumeData.validator(of: weak) == nil)
    }

    @Test("If-Range per RFC 9110: Last-Modified only when it is at least 60 s before the response's Date")
    func lastModified() {
        let modified = "Mon, 23 Nov 2026 10:00:00 GMT"
        let strong = response(["Last-Modified": modified, "Date": "Mon, 23 Nov 2026 10:01:00 GMT"])
        #expect(DownloadResumeData.validator(of: strong) == modified)
        let weak = response(["Last-Modified": modified, "Date": "Mon, 23 Nov 2026 10:00:59 GMT"])
        #expect(DownloadResumeData.validator(of: weak) == nil)
        #expect(DownloadResumeData.validator(of: response(["Last-Modified": modified])) == nil)
        #expect(DownloadResumeData.validator(of: response(["Last-Modified": "yesterday", "Date": modified])) == nil)
    }

    @Test("If-Range after a 206: its strong ETag, else the validator before it; no date once any entity tag is known")
    func validatorAfterPartialContent() {
        let modified = "Mon, 23 Nov 2026 10:00:00 GMT"
        let dated = ["Last-Modified": modified, "Date": "Thu, 26 Nov 2026 10:00:00 GMT"]
        func after(_ previous: String?, _ headers: [String: String]) -> String? {
            DownloadResumeData.validator(continuing: previous, from: response(headers))
        }
        #expect(after(#""v1""#, dated) == #""v1""#)
        #expect(after(#""v1""#, ["ETag": #""v2""#]) == #""v2""#)
        #expect(after(modified, ["ETag": #""v2""#]) == #""v2""#)
        #expect(after(#""v1""#, ["ETag": #"W/"v2""#]) == #""v1""#)
        #expect(after(modified, ["ETag": #"W/"v2""#].merging(dated) { $1 }) == nil)
        #expect(after(nil, dated) == modified)
    }

    @Test("a 206 without an ETag, cut off again: the next resume still sends the ETag, not the 206's Last-Modified")
    func resumedWithoutEntityTagKeepsIt() async throws {
        let resume = try await interrupted()
        // a strong Last-Modified, but RFC 9110 13.1.5: no date in If-Range while an entity tag is known
        let cutAgain = Session(
            transport: StubTransport { _ in
                .stream(
                    status: 206,
                    headers: [
                        "Content-Range": "bytes 5-9/10", "Content-Length": "5",
                        "Last-Modified": "Mon, 23 Nov 2026 10:00:00 GMT", "Date": "Thu, 26 Nov 2026 10:00:00 GMT",
                    ],
                    chunks: ["56"])
            })
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: cutAgain, resumingFrom: resume)
        }
        let kept = try #require(error?.downloadResumeData)
        #expect(kept.bytesReceived == 7)
        #expect(kept.validator == #""v1""#)
        // a 206 with a strong ETag of its own: that one is kept
        let tagged = Session(
            transport: StubTransport { _ in
                .stream(
                    status: 206, headers: ["Content-Range": "bytes 7-9/10", "Content-Length": "3", "ETag": #""v2""#],
                    chunks: ["7"])
            })
        let again = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: tagged, resumingFrom: kept)
        }
        #expect(again?.downloadResumeData?.validator == #""v2""#)
        #expect(again?.downloadResumeData?.bytesReceived == 8)
        try FileManager.default.removeItem(at: try #require(again?.downloadResumeData?.partialFileURL))
    }

    @Test("a partial file without a validator is not resumed: no Range, no If-Range; the 200 rewrites it from byte 0")
    func noValidatorStartsAgain() async throws {
        let session = Session(
            transport: StubTransport { _ in
                .stream(headers: ["Content-Length": "10", "ETag": #"W/"v1""#], chunks: ["01234"])
            })
        let error = await #expect(throws: RequestError.self) {
            try await StreamedRequest().download(to: destination, using: session, resumable: true)
        }
        let resume = try #require(error?.downloadResumeData)
        #expect(resume.validator == nil)
        #expect(resume.bytesReceived == 5)
        let seen = Seen()
        let transport = StubTransport { request in
            seen.record(request)
            return .stream(headers: ["Content-Length": "10"], chunks: ["abcde", "fghij"])
        }
        let download = try await StreamedRequest().download(
            to: destination, using: Session(transport: transport), resumingFrom: resume)
        #expect(seen.ranges.value.count == 1)
        #expect(seen.ranges.value.first?.range == nil)
        #expect(seen.ranges.value.first?.ifRange == nil)
        #expect(download.byteCount == 10)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "abcdefghij")
        #expect(try scratch.names() == ["body.bin"])
    }
}
