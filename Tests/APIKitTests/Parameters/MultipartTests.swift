import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

/// Builds with a fixed boundary, so that whole requests can be pinned byte for byte.
private func withBoundary<R>(_ boundary: String = "BOUNDARY", _ body: () throws -> R) rethrows -> R {
    try MultipartBoundary.$generator.withValue({ boundary }) { try body() }
}

private let crlf = "\r\n"

/// A part as RFC 7578 writes it, for the expected bodies below.
private func part(_ disposition: String, type: String? = nil, _ content: String, boundary: String = "BOUNDARY")
    -> String
{
    "--\(boundary)\r\nContent-Disposition: form-data; \(disposition)\r\n"
        + (type.map { "Content-Type: \($0)\r\n" } ?? "") + "\r\n\(content)\r\n"
}

private func end(_ boundary: String = "BOUNDARY") -> String { "--\(boundary)--\r\n" }

@Suite("@Part and @FilePart: multipart/form-data bodies")
struct MultipartTests {
    struct Meta: Encodable, Sendable {
        var width: Int
        var tags: [String]
    }

    struct TextParts: RequestConfiguration, Sendable {
        @Header("X-Trace") var trace: String? = "t1"
        @Query("dry_run") var dryRun = true
        @Part("title") var title = "Hello, 東京 \"quoted\""
        @Part("count") var count = 3
        @Part("public") var isPublic = false
        @Part("ratio") var ratio = 0.5
        @Part("tags") var tags = ["a", "b c"]
        @Part("note") var note: String? = nil
        @Part("at") var at = Date(timeIntervalSince1970: 0)
        @Part("meta") var meta = Meta(width: 2, tags: ["x/y"])
        @Part("blob") var blob = Data([0x00, 0x0D, 0x0A, 0xFF])
    }

    @Test("golden: text, JSON and Data parts in declaration order; nil omitted; sent as httpBody")
    func goldenTextParts() throws {
        let request = try withBoundary { try urlRequest(TextParts(), method: .post, path: "upload") }
        #expect(request.url?.absoluteString == "https://api.example.com/upload?dry_run=true")
        #expect(request.httpMethod == "POST")
        #expect(
            request.allHTTPHeaderFields == [
                "Content-Type": "multipart/form-data; boundary=BOUNDARY",
                "X-Trace": "t1",
            ]
        )
        #expect(request.httpBodyStream == nil)
        var expected = part(#"name="title""#, "Hello, 東京 \"quoted\"")
        expected += part(#"name="count""#, "3")
        expected += part(#"name="public""#, "false")
        expected += part(#"name="ratio""#, "0.5")
        expected += part(#"name="tags""#, "a") + part(#"name="tags""#, "b c")
        expected += part(#"name="at""#, "1970-01-01T00:00:00Z")
        expected += part(#"name="meta""#, type: "application/json", #"{"tags":["x/y"],"width":2}"#)
        let blobHead =
            "--BOUNDARY\r\nContent-Disposition: form-data; name=\"blob\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        var expectedBytes = Data(expected.utf8)
        expectedBytes.append(Data(blobHead.utf8))
        expectedBytes.append(Data([0x00, 0x0D, 0x0A, 0xFF]))
        expectedBytes.append(Data((crlf + end()).utf8))
        #expect(request.httpBody == expectedBytes)
    }

    struct InMemoryFiles: RequestConfiguration, Sendable {
        @Part("user") var user = "kishi"
        @FilePart("avatar") var avatar = MultipartFile.data(Data("PNG".utf8), filename: "me.png")
        @FilePart("thumb") var thumb: MultipartFile? = nil
        @FilePart("docs") var docs = [
            MultipartFile.data(Data("a".utf8), filename: "a.txt"),
            MultipartFile.data(Data("{}".utf8), filename: "b.weird", mimeType: "application/vnd.x+json"),
        ]
    }

    @Test("golden: in-memory files carry filename and MIME type; arrays give one part per file")
    func goldenInMemoryFiles() throws {
        let request = try withBoundary { try urlRequest(InMemoryFiles(), method: .post) }
        #expect(request.header("Content-Type") == "multipart/form-data; boundary=BOUNDARY")
        #expect(request.header("Content-Length") == nil)
        let expected =
            part(#"name="user""#, "kishi")
            + part(#"name="avatar"; filename="me.png""#, type: "image/png", "PNG")
            + part(#"name="docs"; filename="a.txt""#, type: "text/plain", "a")
            + part(#"name="docs"; filename="b.weird""#, type: "application/vnd.x+json", "{}")
            + end()
        #expect(request.bodyText == expected)
    }

    struct DiskFile: RequestConfiguration, Sendable {
        @Part("caption") var caption = "binary"
        @FilePart("file") var file: MultipartFile? = nil
    }

    @Test("golden: a file on disk is streamed; its bytes come from the file, unchanged")
    func goldenDiskFile() throws {
        let contents = allByteValues(repeated: 3)
        let file = try TemporaryFile("bytes.bin", contents: contents)
        defer { file.remove() }
        let request = try withBoundary { try urlRequest(DiskFile(file: .file(file.url)), method: .post) }
        #expect(request.httpBody == nil)
        #expect(request.httpBodyStream != nil)
        var expected = Data(
            (part(#"name="caption""#, "binary")
                + "--BOUNDARY\r\nContent-Disposition: form-data; name=\"file\"; filename=\"bytes.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").utf8
        )
        expected.append(contents)
        expected.append(Data((crlf + end()).utf8))
        // The transport frames the body from its length; the request carries none as a header.
        #expect(request.header("Content-Length") == nil)
        #expect(request.requestBody?.length == Int64(expected.count))
        #expect(request.requestBody?.fileURL == nil, "parts and a file are not one whole file")
        #expect(try request.requestBody?.data() == expected)
        #expect(request.header("Content-Type") == "multipart/form-data; boundary=BOUNDARY")
        #expect(request.sentBody == expected)
    }

    @Test("the stream yields the same bytes whatever size the reader asks for")
    func smallReads() throws {
        let contents = allByteValues(repeated: 5)
        let file = try TemporaryFile("x.bin", contents: contents)
        defer { file.remove() }
        let whole = try withBoundary { try urlRequest(DiskFile(file: .file(file.url)), method: .post).sentBody }
        let request = try withBoundary { try urlRequest(DiskFile(file: .file(file.url)), method: .post) }
        let stream = try #require(request.httpBodyStream)
        #expect(stream.streamStatus == .notOpen)
        stream.open()
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 7)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            #expect(count >= 0)
            if count <= 0 { break }
            data.append(contentsOf: buffer[..<count])
        }
        #expect(stream.streamStatus == .atEnd)
        stream.close()
        #expect(data == whole)
    }

    @Test("a file that shrinks after the build fails the stream; one that grows sends its old size")
    func fileChangesAfterBuild() throws {
        let file = try TemporaryFile("x.bin", contents: allByteValues(repeated: 2))
        defer { file.remove() }
        let shrunk = try urlRequest(DiskFile(file: .file(file.url)), method: .post)
        let grown = try withBoundary { try urlRequest(DiskFile(file: .file(file.url)), method: .post) }
        let original = try withBoundary { try urlRequest(DiskFile(file: .file(file.url)), method: .post).sentBody }

        try Data(allByteValues(repeated: 4)).write(to: file.url)
        #expect(grown.sentBody == original)

        try Data("tiny".utf8).write(to: file.url)
        let stream = try #require(shrunk.httpBodyStream)
        stream.open()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        var last = 0
        repeat {
            last = stream.read(&buffer, maxLength: buffer.count)
            total += max(last, 0)
        } while last > 0
        #expect(last == -1)
        #expect(total < 512, "no more than the part headers and the file's remaining bytes")
        #expect(stream.streamStatus == .error)
        #expect(stream.streamError as? RequestBodyError == .fileChanged(path: file.url.path, expectedSize: 512))
        #expect(stream.hasBytesAvailable, "a reader must ask again and see -1, not a short body")
    }

    @Test("a file removed after the build fails the stream with read() == -1")
    func fileRemovedAfterBuild() throws {
        let file = try TemporaryFile("x.bin", contents: Data("abc".utf8))
        let request = try urlRequest(DiskFile(file: .file(file.url)), method: .post)
        file.remove()
        let stream = try #require(request.httpBodyStream)
        stream.open()
        var buffer = [UInt8](repeating: 0, count: 1024)
        #expect(stream.read(&buffer, maxLength: buffer.count) == -1)
        #expect(stream.streamError != nil)
        #expect(stream.read(&buffer, maxLength: buffer.count) == -1)
    }

    struct Named: RequestConfiguration, Sendable {
        @Part("a\"b\tc") var text = "v"
        @FilePart("f") var file = MultipartFile.data(Data("x".utf8), filename: "naïve \"résumé\".pdf")
    }

    @Test("golden: \" in names and filenames is percent-encoded; tab and other text are UTF-8")
    func escaping() throws {
        let request = try withBoundary { try urlRequest(Named(), method: .post) }
        let expected =
            part("name=\"a%22b\tc\"", "v")
            + part(#"name="f"; filename="naïve %22résumé%22.pdf""#, type: "application/pdf", "x")
            + end()
        #expect(request.bodyText == expected)
    }

    /// A part whose name is chosen at run time (the plan reads the wrapper at its offset).
    struct ControlName: RequestConfiguration, Sendable {
        @Part("placeholder") var text = "v"

        init(name: String) {
            _text = Part(wrappedValue: "v", name)
        }
    }

    /// A file part whose filename is chosen at run time.
    struct ControlFilename: RequestConfiguration, Sendable {
        @FilePart("f") var file = MultipartFile.data(Data("x".utf8), filename: "a.txt")

        init(filename: String) {
            file = .data(Data("x".utf8), filename: filename)
        }
    }

    static let controlCharacters = ["\r", "\n", "\r\n", "\u{0}", "\u{1}", "\u{1B}", "\u{1F}", "\u{7F}"]

    @Test(
        "CR, LF, NUL and other control characters in a part name fail the build, naming the property",
        arguments: controlCharacters)
    func controlCharacterInName(_ control: String) {
        let name = "a\(control)Content-Type: text/html"
        guard case .invalidPartName(let reported, field: "text") = buildError(ControlName(name: name), method: .post)
        else {
            Issue.record("expected invalidPartName for \(control.debugDescription)")
            return
        }
        #expect(reported == name)
    }

    @Test(
        "CR, LF, NUL and other control characters in a filename fail the build, naming the property and part",
        arguments: controlCharacters)
    func controlCharacterInFilename(_ control: String) {
        let filename = "evil\(control).txt"
        guard
            case .invalidFilename(let reported, field: "file", key: "f") = buildError(
                ControlFilename(filename: filename), method: .post)
        else {
            Issue.record("expected invalidFilename for \(control.debugDescription)")
            return
        }
        #expect(reported == filename)
    }

    @Test("a part name or filename with CR/LF fails perform at the build stage; the transport is never called")
    func controlCharacterSendsNothing() async throws {
        let sent = Locked(0)
        let session = Session(
            transport: StubTransport { _ in
                sent.withLock { $0 += 1 }
                return .success(status: 200)
            })
        let requests: [any Request] = [
            TestRequest(method: .post, configuration: ControlName(name: "a\r\nX-Evil: 1")),
            TestRequest(method: .post, configuration: ControlFilename(filename: "a\r\nX-Evil: 1.txt")),
        ]
        for request in requests {
            let error = await buildFailure(of: request, session: session)
            guard case .buildFailed(let buildError, _) = error else {
                Issue.record("expected buildFailed, got \(String(describing: error))")
                continue
            }
            switch buildError {
            case .invalidPartName, .invalidFilename: break
            default: Issue.record("expected invalidPartName or invalidFilename, got \(buildError)")
            }
            #expect(!String(describing: buildError).contains("\r\n"), "the description escapes CR/LF")
        }
        #expect(sent.withLock { $0 } == 0)
    }

    private func buildFailure(of request: some Request, session: Session) async -> RequestError? {
        do {
            _ = try await request.response(using: session)
            return nil
        } catch {
            return error
        }
    }

    struct Empty: RequestConfiguration, Sendable {
        @Part("a") var a: String? = nil
        @FilePart("f") var file: MultipartFile? = nil
        @FilePart("many") var many: [MultipartFile] = []
        @Part("list") var list: [Int] = []
    }

    @Test("golden: when every part is nil or empty the body is the close delimiter alone")
    func emptyBody() throws {
        let request = try withBoundary { try urlRequest(Empty(), method: .post) }
        #expect(request.bodyText == "--BOUNDARY--\r\n")
        #expect(request.header("Content-Type") == "multipart/form-data; boundary=BOUNDARY")
    }

    // MARK: Boundary

    @Test("the boundary is APIKit- and 32 random alphanumerics, new for every build")
    func randomBoundary() throws {
        let first = try urlRequest(TextParts(), method: .post)
        let second = try TestRequest(method: .post, configuration: TextParts()).makeURLRequest()
        let type = try #require(first.header("Content-Type"))
        let boundary = String(try #require(type.split(separator: "=").last))
        #expect(type == "multipart/form-data; boundary=\(boundary)")
        #expect(boundary.hasPrefix("APIKit-"))
        let random = boundary.dropFirst("APIKit-".count)
        #expect(random.count == 32)
        #expect(random.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        #expect(second.header("Content-Type") != type)
        #expect(try #require(first.bodyText).hasPrefix("--\(boundary)\r\n"))
    }

    /// Hands out the given boundaries in turn, then the last one again.
    final class BoundarySequence: @unchecked Sendable {
        // @unchecked: `remaining` is only touched with `lock` held.
        private let lock = NSLock()
        private var remaining: [String]

        init(_ boundaries: [String]) { remaining = boundaries }

        func next() -> String {
            lock.withLock { remaining.count > 1 ? remaining.removeFirst() : remaining[0] }
        }
    }

    struct Colliding: RequestConfiguration, Sendable {
        @Part("text") var text = "contains --FIRST inside"
        @FilePart("file") var file = MultipartFile.data(Data("and SECOND here".utf8), filename: "f.txt")
    }

    @Test("a boundary that occurs in a part held in memory is drawn again")
    func boundaryCollision() throws {
        let boundaries = BoundarySequence(["FIRST", "SECOND", "THIRD"])
        let request = try MultipartBoundary.$generator.withValue({ boundaries.next() }) {
            try TestRequest(method: .post, configuration: Colliding()).makeURLRequest()
        }
        #expect(request.header("Content-Type") == "multipart/form-data; boundary=THIRD")
        #expect(try #require(request.bodyText).hasPrefix("--THIRD\r\n"))
    }

    // MARK: MultipartFile

    @Test(
        "the MIME type comes from the extension, case-insensitively",
        arguments: [
            ("png", "image/png"), ("JPG", "image/jpeg"), ("jpeg", "image/jpeg"), ("gif", "image/gif"),
            ("webp", "image/webp"), ("svg", "image/svg+xml"), ("pdf", "application/pdf"), ("txt", "text/plain"),
            ("csv", "text/csv"), ("json", "application/json"), ("xml", "application/xml"), ("html", "text/html"),
            ("zip", "application/zip"), ("gz", "application/gzip"), ("mp3", "audio/mpeg"), ("mp4", "video/mp4"),
            ("mov", "video/quicktime"), ("heic", "image/heic"), ("unknownext", "application/octet-stream"),
            ("", "application/octet-stream"),
        ]
    )
    func mimeTable(pathExtension: String, expected: String) {
        #expect(MultipartFile.data(Data(), filename: "file." + pathExtension).mimeType == expected)
    }

    @Test("filename defaults to the URL's last component, MIME type to its extension; both overridable")
    func fileDefaults() {
        let url = URL(fileURLWithPath: "/tmp/photos/Holiday.JPEG")
        #expect(MultipartFile.file(url).filename == "Holiday.JPEG")
        #expect(MultipartFile.file(url).mimeType == "image/jpeg")
        #expect(MultipartFile.file(url, filename: "x.png").mimeType == "image/png")
        #expect(MultipartFile.file(url, filename: "x.png", mimeType: "image/x-custom").mimeType == "image/x-custom")
        #expect(MultipartFile.data(Data(), filename: "README").mimeType == "application/octet-stream")
        #expect(MultipartFile.data(Data(), filename: ".profile").mimeType == "application/octet-stream")
        #expect(MultipartFile.data(Data(), filename: "a.tar.gz").mimeType == "application/gzip")
    }

    /// Compiles only if the types are `Sendable`.
    private func requireSendable<T: Sendable>(_: T.Type) {}

    @Test("the multipart types are Sendable (a compile-time pin)")
    func sendable() {
        requireSendable(MultipartFile.self)
        requireSendable(Part<String>.self)
        requireSendable(FilePart<MultipartFile>.self)
        requireSendable(FilePart<[MultipartFile]>.self)
        requireSendable(BodyEncoding.self)
        requireSendable(BuildError.UnreadableFileReason.self)
        #expect(BodyEncoding.multipart.description == "multipart/form-data")
        #expect(BodyEncoding.multipart != .formURLEncoded)
    }

    // MARK: Custom wrappers

    @propertyWrapper
    struct Attachment: BodyProtocol, Sendable {
        var wrappedValue: URL
        var bodyParameters: [BodyParameter] {
            [
                BodyParameter(
                    key: "attachment", value: MultipartFile.file(wrappedValue, filename: "doc.txt"),
                    encoding: .multipart),
                BodyParameter(key: "kind", value: "doc", encoding: .multipart),
            ]
        }
    }

    struct Custom: RequestConfiguration, Sendable {
        @Attachment var file: URL
        @Part("extra") var extra = 1
    }

    @Test("a wrapper of one's own adds parts with BodyParameter(..., encoding: .multipart)")
    func customWrapper() throws {
        let file = try TemporaryFile("ignored.name", contents: Data("hello".utf8))
        defer { file.remove() }
        let request = try withBoundary { try urlRequest(Custom(file: file.url), method: .post) }
        let expected =
            part(#"name="attachment"; filename="doc.txt""#, type: "text/plain", "hello")
            + part(#"name="kind""#, "doc")
            + part(#"name="extra""#, "1")
            + end()
        #expect(request.sentBody.map { String(decoding: $0, as: UTF8.self) } == expected)
    }

    // MARK: Declaration errors

    struct WithJSON: RequestConfiguration, Sendable {
        @JSON("title") var title = "t"
        @Part("note") var note = "n"
    }

    struct WithField: RequestConfiguration, Sendable {
        @FilePart("file") var file = MultipartFile.data(Data(), filename: "a.txt")
        @Field("user") var user = "u"
    }

    struct WithJSONBody: RequestConfiguration, Sendable {
        @Part("note") var note = "n"
        @JSONBody var body = [1]
    }

    @Test("multipart with @JSON, @Field or a whole body is a declaration error naming both properties")
    func conflicts() {
        guard case .conflictingBodies("title", "note") = buildError(WithJSON(), method: .post) else {
            Issue.record("expected conflictingBodies(title, note)")
            return
        }
        guard case .conflictingBodies("file", "user") = buildError(WithField(), method: .post) else {
            Issue.record("expected conflictingBodies(file, user)")
            return
        }
        guard case .conflictingBodies("note", "body") = buildError(WithJSONBody(), method: .post) else {
            Issue.record("expected conflictingBodies(note, body)")
            return
        }
    }

    @Test("a missing file, a directory or a non-file URL fails the build, naming the property")
    func unreadableFiles() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/a.png")
        let error = buildError(DiskFile(file: .file(missing)), method: .post)
        guard case .unreadableFile(let field, let key, let path, let reason) = error else {
            Issue.record("expected unreadableFile, got \(String(describing: error))")
            return
        }
        #expect(field == "file")
        #expect(key == "file")
        #expect(path == missing.path)
        #expect(reason == .missing)
        #expect(error?.fields == ["file"])
        #expect(String(describing: error!).contains("property `file`"))

        let directory = FileManager.default.temporaryDirectory
        guard
            case .unreadableFile(_, _, _, .notRegularFile) = buildError(DiskFile(file: .file(directory)), method: .post)
        else {
            Issue.record("expected notRegularFile")
            return
        }
        let web = try #require(URL(string: "https://example.com/a.png"))
        guard
            case .unreadableFile(_, _, let webPath, .notFileURL) = buildError(DiskFile(file: .file(web)), method: .post)
        else {
            Issue.record("expected notFileURL")
            return
        }
        #expect(webPath == "https://example.com/a.png")
    }

    struct BadName: RequestConfiguration, Sendable {
        @Part("a\u{0}b") var text = "v"
    }

    struct BadFilename: RequestConfiguration, Sendable {
        @FilePart("f") var file = MultipartFile.data(Data(), filename: "a\u{1B}[31m.txt")
    }

    struct BadMIMEType: RequestConfiguration, Sendable {
        @FilePart("f") var file = MultipartFile.data(Data(), filename: "a.txt", mimeType: "text/plain\r\nX-Evil: 1")
    }

    struct NonFinite: RequestConfiguration, Sendable {
        @Part("n") var number = Double.nan
    }

    struct FileInJSON: RequestConfiguration, Sendable {
        @JSON("file") var file = MultipartFile.data(Data(), filename: "a.txt")
    }

    @Test("control characters in names, filenames and MIME types, and unencodable values, fail the build")
    func invalidValues() {
        guard case .invalidPartName("a\u{0}b", field: "text") = buildError(BadName(), method: .post) else {
            Issue.record("expected invalidPartName")
            return
        }
        guard
            case .invalidFilename("a\u{1B}[31m.txt", field: "file", key: "f") = buildError(BadFilename(), method: .post)
        else {
            Issue.record("expected invalidFilename")
            return
        }
        guard case .invalidHeaderValue(name: "Content-Type", field: "file") = buildError(BadMIMEType(), method: .post)
        else {
            Issue.record("expected invalidHeaderValue")
            return
        }
        guard
            case .unsupportedValue(field: "number", key: "n", reason: .nonFiniteNumber) = buildError(
                NonFinite(), method: .post)
        else {
            Issue.record("expected unsupportedValue(nonFiniteNumber)")
            return
        }
        guard case .valueEncodingFailed(field: "file", key: "file", _) = buildError(FileInJSON(), method: .post) else {
            Issue.record("expected valueEncodingFailed for a MultipartFile in @JSON")
            return
        }
    }

    @Test("a missing file fails perform at the build stage; nothing is sent")
    func missingFileSendsNothing() async throws {
        let endpoint = StubEndpoint(.status(200))
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/a.png")
        let request = TestRequest(base: endpoint.base, method: .post, configuration: DiskFile(file: .file(missing)))
        let probe = CompletionProbe<Result<Data, RequestError>>()
        request.perform(session: StubURLProtocol.session) { probe.record($0) }
        let result = try #require(await probe.first())
        guard case .failure(.buildFailed(.unreadableFile(field: "file", _, _, .missing), _)) = result else {
            Issue.record("expected buildFailed(unreadableFile), got \(result)")
            return
        }
        #expect(endpoint.receivedRequests.isEmpty)
    }

    struct StrategyParts: RequestConfiguration, Sendable {
        @Part("at") var at = Date(timeIntervalSince1970: 86_400)
        @Part("flags") var flags = [true, false]
        @Part("note", strategy: .init(nils: .empty)) var note: String? = nil
        @Part("gone") var gone: Int? = nil
        @Part("when", strategy: .init(dates: .iso8601)) var when = Date(timeIntervalSince1970: 0)
        @Part("meta") var meta = ["enabled": true]
    }

    @Test("golden: the request's and the field's Bool, Date and nil strategies apply to text and JSON parts")
    func strategies() throws {
        let request = try withBoundary {
            try urlRequest(StrategyParts(), method: .post, strategy: .init(bools: .numeric, dates: .secondsSince1970))
        }
        var expected = part(#"name="at""#, "86400")
        expected += part(#"name="flags""#, "1") + part(#"name="flags""#, "0")
        expected += part(#"name="note""#, "")
        expected += part(#"name="when""#, "1970-01-01T00:00:00Z")
        expected += part(#"name="meta""#, type: "application/json", #"{"enabled":1}"#)
        expected += end()
        #expect(request.bodyText == expected)
    }
}
