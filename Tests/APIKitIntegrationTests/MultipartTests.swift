import APIKit
import APIKitTestSupport
import Testing

/// What httpbin's `/post` echoes of a multipart body: text parts in `form`, file parts in
/// `files` keyed by part name (the first file of a repeated name), as text when the file is
/// UTF-8 and as a `data:<content type>;base64,…` URL otherwise.
struct MultipartEcho: Decodable, Sendable {
    var form: [String: EchoValue]
    var files: [String: String]
    var headers: [String: String]

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// The bytes of a file part, decoding httpbin's `data:` URL for a binary file.
    func fileBytes(_ name: String) -> Data? {
        guard let value = files[name] else { return nil }
        guard value.hasPrefix("data:"), let comma = value.firstIndex(of: ",") else { return Data(value.utf8) }
        return Data(base64Encoded: String(value[value.index(after: comma)...]))
    }

    /// The media type httpbin saw for a binary file part.
    func dataURLType(_ name: String) -> String? {
        guard let value = files[name], value.hasPrefix("data:"), let semicolon = value.firstIndex(of: ";") else {
            return nil
        }
        return String(value[value.index(value.startIndex, offsetBy: 5)..<semicolon])
    }
}

struct Dimensions: Encodable, Sendable {
    var width: Int
    var height: Int
}

struct MultipartUploadRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = MultipartEcho

    @Part("title") var title = "Holiday — 東京 \"2026\""
    @Part("tags") var tags = ["sea", "sun"]
    @Part("private") var isPrivate = true
    @Part("size") var size = Dimensions(width: 640, height: 480)
    @Part("note") var note: String? = nil
    @FilePart("file") var file: MultipartFile? = nil
    @FilePart("memory") var memory: MultipartFile? = nil

    var base = HTTPBin.baseURL
    var path = "post"
    var method: HTTPMethod = .post
    var configuration: Self { self }
}

/// Truncates the file after the request is built and before it is sent, so that the body
/// stream fails while URLSession reads it.
struct ShrinkingFileRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = MultipartEcho

    @FilePart("file") var file: MultipartFile? = nil
    var fileURL: URL

    var base = HTTPBin.baseURL
    var path = "post"
    var method: HTTPMethod = .post
    var configuration: Self { self }

    func intercept(urlRequest: URLRequest) throws -> URLRequest {
        try Data("short".utf8).write(to: fileURL)
        return urlRequest
    }
}

/// Every byte value, `count` times over.
private func binary(repeated count: Int) -> Data {
    Data((0..<(256 * count)).map { UInt8(truncatingIfNeeded: $0) })
}

@Suite("Multipart bodies over HTTP", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct MultipartRoundTripTests {
    @Test("text and JSON parts arrive in form; a nil part is absent")
    func textParts() async throws {
        let echo = try await perform(MultipartUploadRequest()).get()
        #expect(echo.form["title"] == .one("Holiday — 東京 \"2026\""))
        #expect(echo.form["tags"] == .many(["sea", "sun"]))
        #expect(echo.form["private"] == .one("true"))
        #expect(echo.form["size"] == .one(#"{"height":480,"width":640}"#))
        #expect(echo.form["note"] == nil)
        #expect(echo.files.isEmpty)
        #expect(echo.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=APIKit-") == true)
    }

    @Test("a binary file streamed from disk arrives byte for byte, with its MIME type")
    func binaryFileFromDisk() async throws {
        let bytes = binary(repeated: 4)
        let scratch = try ScratchDirectory("multipart")
        defer { scratch.remove() }
        let url = try scratch.file("all-bytes.bin", contents: bytes)
        let request = MultipartUploadRequest(
            file: .file(url, mimeType: "application/x-apikit-test"),
            memory: .data(bytes, filename: "memory.bin")
        )
        let echo = try await perform(request).get()
        #expect(echo.fileBytes("file") == bytes)
        #expect(echo.dataURLType("file") == "application/x-apikit-test")
        #expect(echo.fileBytes("memory") == bytes)
        #expect(echo.dataURLType("memory") == "application/octet-stream")
        #expect(echo.form["title"] == .one("Holiday — 東京 \"2026\""))
    }

    @Test("a part with a non-ASCII filename is read as a file (werkzeug decodes it as UTF-8)")
    func nonASCIIFilename() async throws {
        let scratch = try ScratchDirectory("multipart")
        defer { scratch.remove() }
        let url = try scratch.file("résumé 東京.txt", contents: Data("contents ✓".utf8))
        let request = MultipartUploadRequest(
            file: .file(url),
            memory: .data(Data("in memory".utf8), filename: "naïve \"quoted\".txt")
        )
        let echo = try await perform(request).get()
        #expect(echo.files["file"] == "contents ✓")
        #expect(echo.files["memory"] == "in memory")
        #expect(echo.form["file"] == nil, "a filename the server could not read would make it a form field")
    }

    @Test("a several-MB file from disk arrives whole and in order")
    func largeFile() async throws {
        // Numbered ASCII lines: httpbin echoes text as a JSON string, which costs far less
        // CPU than the base64 of binary bytes, and this test runs next to timing-sensitive ones.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(3 * 1024 * 1024)
        for line in 0..<49_152 {  // 64-byte lines: 3 MiB
            var number = line
            var digits = [UInt8](repeating: UInt8(ascii: "0"), count: 8)
            for index in digits.indices.reversed() {
                digits[index] = UInt8(ascii: "0") + UInt8(number % 10)
                number /= 10
            }
            bytes += digits
            bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 55)
            bytes.append(UInt8(ascii: "\n"))
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let scratch = try ScratchDirectory("multipart")
        defer { scratch.remove() }
        let url = try scratch.file("large.txt", contents: Data(bytes))
        let echo = try await perform(MultipartUploadRequest(file: .file(url)), timeout: 60).get()
        let received = try #require(echo.files["file"])
        #expect(received.utf8.count == 3 * 1024 * 1024)
        #expect(received == text)
    }

    @Test("a file that shrinks before it is streamed fails the transfer: .transportFailed")
    func streamErrorIsTransportError() async throws {
        let scratch = try ScratchDirectory("multipart")
        defer { scratch.remove() }
        let url = try scratch.file("shrinks.bin", contents: binary(repeated: 64))
        let result = try await perform(ShrinkingFileRequest(file: .file(url), fileURL: url))
        guard case .failure(let error) = result, case .transportFailed = error else {
            Issue.record("expected .transportFailed, got \(result)")
            return
        }
        #expect(error.stage == .transport)
    }
}
