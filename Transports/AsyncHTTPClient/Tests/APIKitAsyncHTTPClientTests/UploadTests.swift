import APIKit
import APIKitAsyncHTTPClient
import APIKitTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite(
    "Uploads through AsyncHTTPClientTransport",
    .enabled(if: HTTPBin.url != nil && LengthServer.url != nil, LengthServer.skipReason))
struct UploadTests {
    @Test("a multipart upload from disk arrives whole at the Content-Length-only server, with no spool file")
    func multipartFromDisk() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("upload.bin", size: 300_000)
        let spooledBefore = temporarySpoolFiles()
        let request = try FilePartUpload(base: LengthServer.baseURL, path: "multipart", file: .file(file))
            .makeURLRequest()
        let length = try #require(request.requestBody?.length)
        #expect(request.httpBody == nil, "the body must be streamed from disk")

        let probe = CompletionProbe<Result<TransportResponse, any Error>>()
        let task = AsyncHTTPClientTransport().send(request, progress: nil) { result in
            #expect(temporarySpoolFiles().subtracting(spooledBefore).isEmpty, "a spool file was written")
            probe.record(result)
        }
        _ = task
        let response = try #require(await probe.first()).get()
        let report = try LengthServerReport.decode(response.data)
        #expect(report.contentLength == Int(length))
        #expect(report.received == Int(length))
        #expect(report.transferEncoding == nil)
        let parts = try #require(report.parts)
        #expect(parts.map(\.name) == ["caption", "file"])
        #expect(parts.last?.size == 300_000)
        #expect(parts.last?.sha256 == SHA256.hex(try Data(contentsOf: file)))
        #expect(temporarySpoolFiles().subtracting(spooledBefore).isEmpty)
    }

    @Test("a @FileBody upload goes out with its size as Content-Length, never chunked")
    func fileBody() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("body.bin", size: 1_000_003)
        let session = Session(transport: AsyncHTTPClientTransport(client: .shared))
        let data = try await WholeFileUpload(base: LengthServer.baseURL, path: "put", file: file).response(
            using: session)
        let report = try LengthServerReport.decode(data)
        #expect(report.method == "PUT")
        #expect(report.contentLength == 1_000_003)
        #expect(report.received == 1_000_003)
        #expect(report.transferEncoding == nil)
        #expect(report.sha256 == SHA256.hex(try Data(contentsOf: file)))
    }

    @Test("a Content-Length header typed on the request does not decide the framing")
    func typedContentLengthIgnored() async throws {
        var request = URLRequest(url: LengthServer.baseURL.appendingPathComponent("typed"))
        request.httpMethod = "POST"
        request.httpBody = Data("twelve bytes".utf8)
        request.setValue("999", forHTTPHeaderField: "Content-Length")
        let response = try await send(request, through: AsyncHTTPClientTransport(client: .shared)).get()
        let report = try LengthServerReport.decode(response.data)
        #expect(report.contentLength == 12)
        #expect(report.received == 12)
    }

    /// The three ways a body in memory goes out, all on the event loop: `send` without
    /// progress, `send` with a progress handler, and `stream(_:onEvent:)`.
    enum InMemoryRoad: String, CaseIterable, Sendable {
        case send, sendWithProgress, stream
    }

    @Test(
        "a body in memory redirected with 307 or 308 arrives whole at the new location, on every road",
        arguments: [307, 308], InMemoryRoad.allCases)
    func redirectedInMemoryBody(status: Int, road: InMemoryRoad) async throws {
        // several slices and a short last one: the event-loop road writes the body in slices, and
        // AsyncHTTPClient writes it again from its first byte for the new location
        let count = (1 << 20) + 3
        let body = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let target = LengthServer.baseURL.appendingPathComponent("redirected").absoluteString
        var components = try #require(URLComponents(url: HTTPBin.baseURL, resolvingAgainstBaseURL: false))
        components.path = "/redirect-to"
        components.queryItems = [
            URLQueryItem(name: "url", value: target), URLQueryItem(name: "status_code", value: String(status)),
        ]
        var request = URLRequest(url: try #require(components.url))
        request.httpMethod = "POST"
        request.httpBody = body
        let transport = AsyncHTTPClientTransport(client: .shared)
        let finalURL: URL?
        let received: Data
        switch road {
        case .send, .sendWithProgress:
            let probe = CompletionProbe<Result<TransportResponse, any Error>>()
            let sent = Protected<Int64>(0)
            var progress: (@Sendable (TransferProgress) -> Void)? = nil
            if road == .sendWithProgress { progress = { step in sent.withLock { $0 = step.bytesSent } } }
            _ = transport.send(request, progress: progress, completion: probe.handler)
            let response = try #require(await probe.first()).get()
            if road == .sendWithProgress { #expect(sent.value == Int64(count), "sent twice, or not at all") }
            (finalURL, received) = ((response.urlResponse as? HTTPURLResponse)?.url, response.data)
        case .stream:
            let recording = StreamRecording()
            let head = Protected<URL?>(nil)
            _ = transport.stream(
                request,
                onEvent: recording.handler { event in
                    if case .response(let response) = event { head.withLock { $0 = response.url } }
                })
            #expect(try #require(await recording.end.first(), "no end") == .finished)
            (finalURL, received) = (head.value, recording.body)
        }
        #expect(finalURL?.path == "/redirected")
        let report = try LengthServerReport.decode(received)
        #expect(report.method == "POST")
        #expect(report.contentLength == body.count)
        #expect(report.received == body.count)
        #expect(report.sha256 == SHA256.hex(body))
    }

    @Test("a foreign body stream (no known length) is sent chunked and arrives whole at httpbin")
    func foreignStream() async throws {
        var request = URLRequest(url: HTTPBin.baseURL.appendingPathComponent("anything"))
        request.httpMethod = "POST"
        let body = Data(repeating: 0x61, count: 200_000)
        request.httpBodyStream = InputStream(data: body)
        let response = try await send(request, through: AsyncHTTPClientTransport(client: .shared)).get()
        struct Raw: Decodable {
            var data: String
            var headers: [String: String]
        }
        let echo = try JSONDecoder().decode(Raw.self, from: response.data)
        #expect(echo.data.utf8.count == body.count)
        #expect(echo.headers["Transfer-Encoding"] == "chunked")
    }

    @Test(
        "a presigned S3 PUT of a file is stored byte for byte",
        .enabled(if: S3Server.url != nil && Presigner.command != nil, S3Server.skipReason)
    )
    func presignedPut() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("object.bin", size: 700_001)
        let bucket = try await Presigner.createBucket()
        let put = try await Presigner.put(bucket: bucket, key: "object.bin")
        let session = Session(transport: AsyncHTTPClientTransport(client: .shared))
        _ = try await WholeFileUpload(base: put, path: "", file: file).response(using: session)
        let get = try await Presigner.get(bucket: bucket, key: "object.bin")
        let stored = try await send(URLRequest(url: get), through: AsyncHTTPClientTransport(client: .shared)).get()
        #expect(stored.data == (try Data(contentsOf: file)))
    }
}
