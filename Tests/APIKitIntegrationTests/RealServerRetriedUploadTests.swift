import APIKit
import APIKitTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Issue 36's promise against servers nobody here wrote: an attempt after the first sends a fresh
// body stream over the same RequestBody, so a retried upload streamed from disk reaches the
// server whole and byte-exact again. The first attempt really goes out; the 503 that makes the
// session's retry policy send it again comes from an interceptor.

/// Lets the first attempt of a call reach the server, then answers it with a 503 of its own, as
/// a server that failed after reading the body would: the session's ``RetryPolicy`` sends the
/// request again, and the server receives the body twice. Keeps, for every attempt, its number
/// (from the ``RequestContext``) and what the server really answered.
struct UnavailableOnFirstAttempt: Interceptor {
    struct Attempt: Sendable {
        var number: Int
        var response: HTTPURLResponse?
        var data: Data?
    }

    struct NoURL: Error {}

    let attempts = Protected<[Attempt]>([])

    func intercept(
        _ urlRequest: URLRequest,
        context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        let response = try await next(urlRequest)
        attempts.append(
            Attempt(number: context.attempts, response: response.urlResponse as? HTTPURLResponse, data: response.data))
        guard context.attempts == 1 else { return response }
        guard let url = response.urlResponse.url ?? urlRequest.url,
            let unavailable = HTTPURLResponse(
                url: url, statusCode: 503, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "text/plain"])
        else { throw NoURL() }
        return CallResponse(urlResponse: unavailable, data: Data("unavailable".utf8))
    }
}

/// A session over `transport` whose calls are answered 503 once, then sent again at once.
private func retryingSession(
    _ transport: any Transport, methods: Set<HTTPMethod> = RetryPolicy().retryableMethods
) -> (session: Session, interceptor: UnavailableOnFirstAttempt) {
    let interceptor = UnavailableOnFirstAttempt()
    let policy = RetryPolicy(maxAttempts: 2, retryableMethods: methods, backoff: .init(baseDelay: 0))
    return (Session(transport: transport, interceptors: [interceptor], retryPolicy: policy), interceptor)
}

extension RealServerUploadLengthTests {
    @Test("a multipart upload of 3 MiB from disk answered 503 once is sent again, whole, with the same body")
    func retriedMultipart() async throws {
        let base = try #require(LengthServer.url)
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let contents = uploadPattern(size: 3 << 20, seed: 10)
        let file = try scratch.file("retried.bin", contents: contents)
        let upload = FilePartUpload(base: base, path: "multipart", file: .file(file))
        let parts = [
            LengthServerReport.Part(
                name: "caption", filename: nil, contentType: nil, size: 6, sha256: SHA256.hex(Data("upload".utf8))),
            LengthServerReport.Part(
                name: "file", filename: "retried.bin", contentType: "application/octet-stream", size: contents.count,
                sha256: SHA256.hex(contents)),
        ]

        for (name, base) in uploadTransports(spoolingTo: scratch) {
            let transport = CapturingTransport(base: base)
            // POST is not retried by default: this endpoint only reports what it read
            let (session, interceptor) = retryingSession(transport, methods: [.post])
            let answer = try LengthServerReport.decode(await upload.response(using: session))

            let attempts = interceptor.attempts.value
            #expect(attempts.map(\.number) == [1, 2], "\(name)")
            #expect(attempts.map { $0.response?.statusCode } == [200, 200], "\(name): the server took both sends")
            let sent = try sent(through: transport)
            try #require(sent.count == 2, "\(name): the server saw both attempts")
            #expect(sent[0].body == sent[1].body, "\(name): the retry sends the body built once, not a new build")
            for (attempt, (report, body, sha256)) in sent.enumerated() {
                let comment: Comment = "\(name), attempt \(attempt + 1)"
                expectWhole(report, length: body.length, sha256: sha256, comment)
                #expect(report.error == nil, comment)
                #expect(report.parts == parts, comment)
            }
            // the call's answer is the server's report of the second send
            expectWhole(answer, length: sent[1].body.length, sha256: sent[1].sha256, "\(name): the answer")
            #expect(answer.parts == parts, "\(name): the answer")
            #expect(scratch.spoolFiles.isEmpty, "\(name)")
        }
    }
}

extension RealServerUploadS3Tests {
    @Test("a presigned PUT of a 3 MiB file answered 503 once is sent again: both versions S3 stored equal the file")
    func retriedPut() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let contents = uploadPattern(size: 3 << 20, seed: 11)
        let file = try scratch.file("retried.tar", contents: contents)
        // versioned: each send is stored as a version of its own, so S3 tells how many it received
        let bucket = try await Presigner.createBucket(versioned: true)

        for (name, transport) in uploadTransports(spoolingTo: scratch) {
            let key = "retried/\(name)/retried.tar"
            let put = try await Presigner.put(bucket: bucket, key: key, contentType: "application/x-tar")
            let (session, interceptor) = retryingSession(transport)
            _ = try await PresignedPutUpload(base: put, file: file).response(using: session)

            let attempts = interceptor.attempts.value
            #expect(attempts.map(\.number) == [1, 2], "\(name)")
            #expect(attempts.map { $0.response?.statusCode } == [200, 200], "\(name): S3 took both sends")
            let sentVersions = attempts.compactMap { $0.response?.value(forHTTPHeaderField: "x-amz-version-id") }
            try #require(sentVersions.count == 2, "\(name): every PUT to a versioned bucket names its version")
            let versions = try await Presigner.versions(bucket: bucket, key: key)
            #expect(versions.count == 2, "\(name): S3 stored one version per send")
            #expect(Set(versions.map(\.versionId)) == Set(sentVersions), "\(name)")
            #expect(
                versions.first { $0.isLatest }?.versionId == sentVersions[1], "\(name): the object is the second send")
            for version in versions {
                let comment: Comment = "\(name), version \(version.versionId)"
                #expect(version.size == contents.count, comment)
                let stored = try await PresignedGet(
                    base: Presigner.get(bucket: bucket, key: key, versionId: version.versionId)
                ).response(using: Session(transport: transport))
                expectSameBytes(stored.data, contents, "\(comment): differs from the file")
                #expect(stored.contentType == "application/x-tar", comment)
            }
            #expect(scratch.spoolFiles.isEmpty, "\(name): a whole file is never spooled")
        }
    }
}
