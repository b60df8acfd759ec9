import APIKit
import APIKitTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The uploads against real servers, through APIKit's public API only: moto's S3
// (presigned POST, PUT and GET, and its 411 for a chunked POST), FastAPI with python-multipart,
// and a server that reads bodies by Content-Length alone. Every body must arrive whole, framed
// with Content-Length and never chunked, and no spool file may be left behind.

// MARK: - moto S3

@Suite(
    "Real-server uploads: moto S3 presigned POST and PUT",
    .enabled(if: S3Server.url != nil && Presigner.command != nil, S3Server.skipReason)
)
struct RealServerUploadS3Tests {
    @Test("a presigned POST of policy fields and a 3 MiB file from disk is stored byte-identical")
    func presignedPost() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let contents = uploadPattern(size: 3 << 20, seed: 1)
        let file = try scratch.file("photo.bin", contents: contents)
        let bucket = try await Presigner.createBucket()

        for (name, session) in uploadSessions(spoolingTo: scratch) {
            let key = "post/\(name)/photo.bin"
            let post = try await Presigner.orderedPost(bucket: bucket, key: key)
            #expect(post.fields.first?.name == "key", "boto3 puts the key first")
            #expect(post.fields.contains { $0.name == "policy" })
            let upload = PresignedPostUpload(base: post.url, fields: post.fields, file: .file(file))
            _ = try await upload.response(using: session)

            let stored = try await PresignedGet(base: Presigner.get(bucket: bucket, key: key)).response(using: session)
            expectSameBytes(stored.data, contents, "\(name): the object differs from the file")
            #expect(scratch.spoolFiles.isEmpty, "\(name)")
        }
    }

    @Test("a presigned PUT of a file as the whole body is stored byte-identical, with its content type")
    func presignedPut() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let contents = uploadPattern(size: 2 << 20, seed: 2)
        let file = try scratch.file("backup.tar", contents: contents)
        let bucket = try await Presigner.createBucket()

        for (name, session) in uploadSessions(spoolingTo: scratch) {
            let key = "put/\(name)/backup.tar"
            let put = try await Presigner.put(bucket: bucket, key: key, contentType: "application/x-tar")
            _ = try await PresignedPutUpload(base: put, file: file).response(using: session)

            let stored = try await PresignedGet(base: Presigner.get(bucket: bucket, key: key)).response(using: session)
            expectSameBytes(stored.data, contents, "\(name): the object differs from the file")
            #expect(stored.contentType == "application/x-tar", "\(name)")
            #expect(scratch.spoolFiles.isEmpty, "\(name): a whole file is never spooled")
        }
    }

    @Test("moto answers a chunked presigned POST with 411 and stores nothing; APIKit's upload of it is stored")
    func chunkedPostIsRefusedButAPIKitsIsNot() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let contents = uploadPattern(size: 1 << 20, seed: 3)
        let file = try scratch.file("doc.bin", contents: contents)
        let bucket = try await Presigner.createBucket()
        let key = "chunked/doc.bin"
        let post = try await Presigner.orderedPost(bucket: bucket, key: key)
        let upload = PresignedPostUpload(base: post.url, fields: post.fields, file: .file(file))
        let built = try upload.makeURLRequest()
        let body = try #require(built.requestBody)
        #expect(built.value(forHTTPHeaderField: "Content-Length") == nil, "framing is the transport's job")

        // The control: the very same bytes as a stream of unknown length, which URLSession sends chunked.
        var chunked = URLRequest(url: try #require(built.url))
        chunked.httpMethod = "POST"
        chunked.setValue(built.value(forHTTPHeaderField: "Content-Type"), forHTTPHeaderField: "Content-Type")
        chunked.httpBodyStream = InputStream(data: try body.data())
        let (refusal, refused) = try await URLSession.shared.data(for: chunked)
        #expect((refused as? HTTPURLResponse)?.statusCode == 411)
        #expect(String(decoding: refusal, as: UTF8.self) == "Content-Length required")
        let get = try await Presigner.get(bucket: bucket, key: key)
        let (_, missing) = try await URLSession.shared.data(for: URLRequest(url: get))
        #expect((missing as? HTTPURLResponse)?.statusCode == 404, "the refused upload stored nothing")

        // APIKit's upload of the same request: framed with Content-Length, accepted and stored.
        _ = try await upload.response(using: Session(transport: TestTransport.make(spoolDirectory: scratch.url)))
        let stored = try await PresignedGet(base: get).response(using: Session(transport: TestTransport.shared))
        expectSameBytes(stored.data, contents)
        #expect(scratch.spoolFiles.isEmpty)
    }
}

// MARK: - FastAPI

/// What `fastapi_app.py` reports about a request's framing: `content-length` and `transfer-encoding`.
typealias FramingHeaders = [String: String?]

/// Checks that a body of `length` bytes was framed with that Content-Length and not chunked.
private func expectFramed(_ headers: FramingHeaders, length: Int64, _ comment: Comment? = nil) {
    #expect(headers["content-length"] == .some(String(length)), comment)
    #expect(headers["transfer-encoding"] == .some(nil), comment)
}

/// The JSON answers of `fastapi_app.py`, keys in snake case.
private func snakeCaseDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return decoder
}

@Suite(
    "Real-server uploads: FastAPI with python-multipart",
    .enabled(if: FastAPIServer.url != nil, FastAPIServer.skipReason)
)
struct RealServerUploadFastAPITests {
    struct MultipartAnswer: Decodable {
        struct File: Decodable, Equatable {
            var field: String
            var filename: String?
            var contentType: String?
            var size: Int
            var sha256: String
        }
        var fields: [String: EchoValue]
        var files: [File]
        var headers: FramingHeaders
    }

    struct Upload: Request, RequestConfiguration {
        var base: URL
        var path: String { "multipart" }
        var method: HTTPMethod { .post }
        var parser: RawDataParser { RawDataParser() }
        var configuration: Self { self }
        @Part("title") var title = "Holiday in 東京"
        @Part("tags") var tags = ["sea", "sun"]
        @Part("count") var count = 3
        @FilePart("photo") var photo: MultipartFile? = nil
        @FilePart("attachments") var attachments: [MultipartFile] = []
    }

    @Test("a multipart body of two files from disk, one in memory and text fields is parsed whole")
    func multipart() async throws {
        let base = try #require(FastAPIServer.url)
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let photo = uploadPattern(size: 1 << 20, seed: 4)
        let notes = uploadPattern(size: 200_000, seed: 5)
        let memo = Data("a memo, in memory: ✓\n".utf8)
        let upload = Upload(
            base: base,
            photo: .file(try scratch.file("photo.jpg", contents: photo)),
            attachments: [
                .file(try scratch.file("notes.bin", contents: notes)),
                .data(memo, filename: "memo ✓.txt"),
            ])
        let length = try #require(try upload.makeURLRequest().requestBody?.length)
        let expected = [
            MultipartAnswer.File(
                field: "photo", filename: "photo.jpg", contentType: "image/jpeg", size: photo.count,
                sha256: SHA256.hex(photo)),
            MultipartAnswer.File(
                field: "attachments", filename: "notes.bin", contentType: "application/octet-stream",
                size: notes.count, sha256: SHA256.hex(notes)),
            MultipartAnswer.File(
                field: "attachments", filename: "memo ✓.txt", contentType: "text/plain", size: memo.count,
                sha256: SHA256.hex(memo)),
        ]

        for (name, session) in uploadSessions(spoolingTo: scratch) {
            let answer = try snakeCaseDecoder().decode(
                MultipartAnswer.self, from: await upload.response(using: session))
            #expect(answer.fields["title"] == .one("Holiday in 東京"), "\(name)")
            #expect(answer.fields["tags"] == .many(["sea", "sun"]), "\(name)")
            #expect(answer.fields["count"] == .one("3"), "\(name)")
            #expect(answer.fields.count == 3, "\(name)")
            #expect(answer.files == expected, "\(name)")
            expectFramed(answer.headers, length: length, "\(name)")
            #expect(scratch.spoolFiles.isEmpty, "\(name)")
        }
    }

    struct Form: Request, RequestConfiguration {
        var base: URL
        var path: String { "form" }
        var method: HTTPMethod { .post }
        var parser: RawDataParser { RawDataParser() }
        var configuration: Self { self }
        @Field("name") var name = "Zoë & co = 100% + more"
        @Field("ids") var ids = [1, 2, 3]
        @Field("active") var active = true
    }

    @Test("a form body of @Field values is parsed whole and framed with its length")
    func form() async throws {
        struct Answer: Decodable {
            var form: [String: EchoValue]
            var headers: FramingHeaders
        }
        let form = Form(base: try #require(FastAPIServer.url))
        let length = try #require(try form.makeURLRequest().httpBody?.count)
        let answer = try JSONDecoder().decode(
            Answer.self, from: await form.response(using: Session(transport: TestTransport.shared)))
        #expect(answer.form["name"] == .one("Zoë & co = 100% + more"))
        #expect(answer.form["ids"] == .many(["1", "2", "3"]))
        #expect(answer.form["active"] == .one("true"))
        #expect(answer.form.count == 3)
        expectFramed(answer.headers, length: Int64(length))
    }

    struct Document: Codable, Equatable, Sendable {
        var title: String
        var pages: [Int]
    }

    struct JSONUpload: Request, RequestConfiguration {
        var base: URL
        var path: String { "json" }
        var method: HTTPMethod { .post }
        var parser: RawDataParser { RawDataParser() }
        var configuration: Self { self }
        @JSON("name") var name = "東京 👍🏽 \"quoted\""
        @JSON("numbers") var numbers = [1, 2, 3]
        @JSON("document") var document = Document(title: "t", pages: [4, 5])
        @JSON("missing") var missing: String? = nil
    }

    @Test("a JSON body of @JSON members is parsed whole and framed with its length")
    func json() async throws {
        struct Answer: Decodable {
            struct Body: Decodable, Equatable {
                var name: String
                var numbers: [Int]
                var document: Document
            }
            var json: Body
            var headers: FramingHeaders
        }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let upload = JSONUpload(base: try #require(FastAPIServer.url))
        let length = try #require(try upload.makeURLRequest().httpBody?.count)
        let session = Session(transport: TestTransport.make(spoolDirectory: scratch.url))
        let answer = try JSONDecoder().decode(Answer.self, from: await upload.response(using: session))
        #expect(
            answer.json
                == Answer.Body(
                    name: "東京 👍🏽 \"quoted\"", numbers: [1, 2, 3], document: Document(title: "t", pages: [4, 5])))
        expectFramed(answer.headers, length: Int64(length))
        #expect(scratch.spoolFiles.isEmpty)
    }
}

// MARK: - The Content-Length-only server

/// Checks that the Content-Length server received all of `body` (it reads by Content-Length
/// alone, so a chunked body would arrive as 0 bytes) and saw no Transfer-Encoding at all.
func expectWhole(_ report: LengthServerReport, length: Int64, sha256: String, _ comment: Comment? = nil) {
    #expect(report.contentLength.map(Int64.init) == length, comment)
    #expect(Int64(report.received) == length, comment)
    #expect(report.sha256 == sha256, comment)
    #expect(report.transferEncoding == nil, comment)
    #expect(!report.headers.keys.contains { $0.lowercased() == "transfer-encoding" }, comment)
}

@Suite(
    "Real-server uploads: a server that reads bodies by Content-Length only",
    .enabled(if: LengthServer.url != nil, LengthServer.skipReason)
)
struct RealServerUploadLengthTests {
    /// The requests `transport` sent, each with the server's report and the SHA-256 and
    /// length of the body APIKit built for it.
    func sent(through transport: CapturingTransport) throws -> [(
        report: LengthServerReport, body: RequestBody, sha256: String
    )] {
        try transport.exchanges.value.map { exchange in
            let body = try #require(exchange.request.requestBody)
            let report = try LengthServerReport.decode(try #require(exchange.answer))
            #expect(report.contentType == exchange.request.value(forHTTPHeaderField: "Content-Type"))
            return (report, body, SHA256.hex(try body.data()))
        }
    }

    @Test("a multipart upload of 4 MiB streamed from disk arrives whole, as APIKit built it")
    func multipartFromDisk() async throws {
        let base = try #require(LengthServer.url)
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let contents = uploadPattern(size: 4 << 20, seed: 6)
        let file = try scratch.file("video.bin", contents: contents)
        let upload = FilePartUpload(base: base, path: "multipart", file: .file(file))
        let parts = [
            LengthServerReport.Part(
                name: "caption", filename: nil, contentType: nil, size: 6, sha256: SHA256.hex(Data("upload".utf8))),
            LengthServerReport.Part(
                name: "file", filename: "video.bin", contentType: "application/octet-stream", size: contents.count,
                sha256: SHA256.hex(contents)),
        ]

        for (name, base) in uploadTransports(spoolingTo: scratch) {
            let transport = CapturingTransport(base: base)
            _ = try await upload.response(using: Session(transport: transport))
            let sent = try sent(through: transport)
            try #require(sent.count == 1, "\(name)")
            let (report, body, sha256) = sent[0]
            let request = try #require(transport.exchanges.value.first?.request)
            #expect(body.fileURL == nil && request.httpBody == nil, "\(name): bytes and a file, spooled on Linux")
            #expect(report.method == "POST", "\(name)")
            expectWhole(report, length: body.length, sha256: sha256, "\(name)")
            #expect(report.error == nil, "\(name)")
            #expect(report.parts == parts, "\(name)")
            #expect(scratch.spoolFiles.isEmpty, "\(name)")
        }
    }

    @Test("the control: the same multipart body sent chunked by plain URLSession arrives as 0 bytes")
    func chunkedArrivesEmpty() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("small.bin", contents: uploadPattern(size: 100_000, seed: 9))
        let built = try FilePartUpload(base: try #require(LengthServer.url), path: "multipart", file: .file(file))
            .makeURLRequest()
        var chunked = URLRequest(url: try #require(built.url))
        chunked.httpMethod = "POST"
        chunked.setValue(built.value(forHTTPHeaderField: "Content-Type"), forHTTPHeaderField: "Content-Type")
        chunked.httpBodyStream = InputStream(data: try #require(built.requestBody).data())
        let (data, _) = try await URLSession.shared.data(for: chunked)
        let report = try LengthServerReport.decode(data)
        #expect(report.transferEncoding == "chunked")
        #expect(report.contentLength == nil)
        #expect(report.received == 0, "what the tests above would see, had APIKit sent chunked")
    }

    @Test("a @FileBody PUT of 4 MiB arrives whole, with its content type")
    func wholeFile() async throws {
        let base = try #require(LengthServer.url)
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let contents = uploadPattern(size: 4 << 20, seed: 7)
        let file = try scratch.file("disk.img", contents: contents)
        let upload = WholeFileUpload(base: base, path: "put", file: file)
        let sha256 = SHA256.hex(contents)

        for (name, session) in uploadSessions(spoolingTo: scratch) {
            let report = try LengthServerReport.decode(await upload.response(using: session))
            #expect(report.method == "PUT", "\(name)")
            expectWhole(report, length: Int64(contents.count), sha256: sha256, "\(name)")
            #expect(report.contentType == "application/octet-stream", "\(name)")
            #expect(scratch.spoolFiles.isEmpty, "\(name)")
        }
    }

    @Test("an in-memory JSON body arrives whole")
    func json() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let upload = RealServerUploadFastAPITests.JSONUpload(base: try #require(LengthServer.url))
        for (name, base) in uploadTransports(spoolingTo: scratch) {
            let transport = CapturingTransport(base: base)
            _ = try await upload.response(using: Session(transport: transport))
            let sent = try sent(through: transport)
            try #require(sent.count == 1, "\(name)")
            let (report, body, sha256) = sent[0]
            #expect(transport.exchanges.value.first?.request.httpBody != nil, "\(name): a body in memory")
            expectWhole(report, length: body.length, sha256: sha256, "\(name)")
            #expect(report.path == "/json", "\(name)")
            #expect(report.contentType == "application/json", "\(name)")
            #expect(scratch.spoolFiles.isEmpty, "\(name): a body in memory is never spooled")
        }
    }

    @Test("each retry reads the file again: all three attempts arrive whole, multipart and whole file")
    func retries() async throws {
        let base = try #require(LengthServer.url)
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let contents = uploadPattern(size: 1 << 20, seed: 8)
        let file = try scratch.file("retry.bin", contents: contents)
        let transport = CapturingTransport(base: TestTransport.make(spoolDirectory: scratch.url))
        var session = Session(transport: transport)
        // every answer, a success too, is retried until the third
        session.retryPolicy = RetryPolicy(
            maxAttempts: 3, retryableMethods: [.post, .put], retryableStatusCodes: [200],
            backoff: .init(baseDelay: 0.01, multiplier: 1, maxDelay: 0.01))

        _ = try await FilePartUpload(base: base, path: "multipart", file: .file(file)).response(using: session)
        #expect(scratch.spoolFiles.isEmpty)
        _ = try await WholeFileUpload(base: base, path: "put", file: file).response(using: session)
        #expect(scratch.spoolFiles.isEmpty)

        let sent = try sent(through: transport)
        try #require(sent.count == 6)
        for (attempt, (report, body, sha256)) in sent.prefix(3).enumerated() {
            expectWhole(report, length: body.length, sha256: sha256, "multipart attempt \(attempt + 1)")
            #expect(report.parts?.last?.size == contents.count, "multipart attempt \(attempt + 1)")
        }
        let fileHash = SHA256.hex(contents)
        for (attempt, (report, body, sha256)) in sent.suffix(3).enumerated() {
            #expect(sha256 == fileHash)
            expectWhole(report, length: Int64(contents.count), sha256: sha256, "whole-file attempt \(attempt + 1)")
            #expect(body.fileURL == file)
        }
    }
}
