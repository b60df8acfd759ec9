import Foundation
import Testing

@testable import APIKit

@Suite("@FileBody")
struct FileBodyTests {
    struct Upload: RequestConfiguration, Sendable {
        @FileBody var file: URL? = nil
    }

    struct TypedUpload: RequestConfiguration, Sendable {
        @FileBody("application/x-tar") var file: URL? = nil
    }

    struct OverriddenType: RequestConfiguration, Sendable {
        @Header("Content-Type") var type: String? = "text/csv"
        @FileBody("application/octet-stream") var file: URL? = nil
    }

    struct WithJSON: RequestConfiguration, Sendable {
        @FileBody var file: URL? = nil
        @JSON("name") var name = "x"
    }

    struct BadType: RequestConfiguration, Sendable {
        @FileBody("text/plain\r\nX-Injected: 1") var file: URL? = nil
    }

    /// A wrapper of someone's own that names the file encoding but holds no URL.
    @propertyWrapper
    struct NotAURL: BodyProtocol, Sendable {
        var wrappedValue: String
        var bodyParameters: [BodyParameter] {
            [BodyParameter(key: "", value: wrappedValue, encoding: .file())]
        }
    }

    struct WrongValue: RequestConfiguration, Sendable {
        @NotAURL var path = "/tmp/x"
    }

    @Test("the file is the whole body: described by its URL and size, never read into the request")
    func wholeFile() throws {
        let contents = allByteValues(repeated: 4)
        let file = try TemporaryFile("photo.png", contents: contents)
        defer { file.remove() }
        let request = try urlRequest(Upload(file: file.url), method: .put)
        #expect(request.httpBody == nil)
        let body = try #require(request.requestBody)
        #expect(body.fileURL == file.url)
        #expect(body.length == Int64(contents.count))
        #expect(body.inMemoryData == nil)
        #expect(try body.data() == contents)
        #expect(request.header("Content-Type") == "image/png", "inferred from the extension")
        #expect(request.header("Content-Length") == nil, "the transport frames the body")
    }

    @Test("the declared content type is sent; a Content-Type header replaces it")
    func contentType() throws {
        let file = try TemporaryFile("backup.bin", contents: Data("abc".utf8))
        defer { file.remove() }
        #expect(try urlRequest(TypedUpload(file: file.url), method: .put).header("Content-Type") == "application/x-tar")
        #expect(try urlRequest(OverriddenType(file: file.url), method: .put).header("Content-Type") == "text/csv")
        #expect(
            try urlRequest(Upload(file: file.url), method: .put).header("Content-Type") == "application/octet-stream")
    }

    @Test("nil sends no body")
    func nilFile() throws {
        let request = try urlRequest(Upload(), method: .put)
        #expect(request.requestBody == nil)
        #expect(request.header("Content-Type") == nil)
    }

    @Test("a missing file, a directory or a non-file URL fails the build naming the property")
    func unreadable() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/apikit-\(UUID().uuidString)")
        let error = buildError(Upload(file: missing), method: .put)
        guard case .unreadableFile(field: "file", key: "", _, reason: .missing) = error else {
            Issue.record("a missing file was accepted")
            return
        }
        #expect(error.map(String.init(describing:))?.contains("part") == false, "a file body has no part")
        let directory = FileManager.default.temporaryDirectory
        guard case .unreadableFile(_, _, _, reason: .notRegularFile) = buildError(Upload(file: directory), method: .put)
        else {
            Issue.record("a directory was accepted")
            return
        }
        let web = URL(string: "https://example.com/file.bin")!
        guard case .unreadableFile(_, _, _, reason: .notFileURL) = buildError(Upload(file: web), method: .put) else {
            Issue.record("an https URL was accepted")
            return
        }
    }

    @Test("a file body with another body parameter is a conflict")
    func conflict() throws {
        let file = try TemporaryFile("a.bin", contents: Data("abc".utf8))
        defer { file.remove() }
        guard case .conflictingBodies("file", "name") = buildError(WithJSON(file: file.url), method: .post) else {
            Issue.record("a file body beside @JSON was accepted")
            return
        }
    }

    @Test("a content type with CR or LF is rejected, not sent")
    func injectedContentType() throws {
        let file = try TemporaryFile("a.bin", contents: Data("abc".utf8))
        defer { file.remove() }
        guard
            case .invalidHeaderValue(name: "Content-Type", field: "file") = buildError(
                BadType(file: file.url), method: .put)
        else {
            Issue.record("a content type with CRLF was accepted")
            return
        }
    }

    @Test("a custom wrapper whose file-body value is not a URL fails naming its type")
    func notAURL() {
        guard
            case .unsupportedValue(field: "path", key: "", reason: .notFileURL("String")) = buildError(
                WrongValue(), method: .put)
        else {
            Issue.record("a String value was accepted as a file body")
            return
        }
    }
}
