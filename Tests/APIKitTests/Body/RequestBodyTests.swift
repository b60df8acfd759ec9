import Foundation
import Testing

@testable import APIKit

@Suite("RequestBody")
struct RequestBodyTests {
    /// Bytes, a file, bytes: the shape of a multipart body with one file.
    static func mixed(_ file: TemporaryFile, size: Int64) -> RequestBody {
        RequestBody(segments: [.bytes(Data("head|".utf8)), .file(file.url, size: size), .bytes(Data("|tail".utf8))])
    }

    @Test("length counts every segment; a body in memory has its bytes, a file body its URL")
    func description() throws {
        let file = try TemporaryFile("x.bin", contents: allByteValues(repeated: 3))
        defer { file.remove() }
        let body = Self.mixed(file, size: 768)
        #expect(body.length == 5 + 768 + 5)
        #expect(body.fileURL == nil)
        #expect(body.inMemoryData == nil)
        #expect(RequestBody(data: Data("abc".utf8)).inMemoryData == Data("abc".utf8))
        #expect(try RequestBody(data: Data("abc".utf8)).data() == Data("abc".utf8))
        let parts = RequestBody(segments: [.bytes(Data("ab".utf8)), .bytes(Data("c".utf8))])
        #expect(try parts.data() == Data("abc".utf8))
        #expect(RequestBody(data: Data()).length == 0)
        #expect(RequestBody(segments: [.file(file.url, size: 768)]).fileURL == file.url)
    }

    @Test("data(), chunks() of any size and the input stream all yield the same bytes, again and again")
    func readings() async throws {
        let contents = allByteValues(repeated: 3)
        let file = try TemporaryFile("x.bin", contents: contents)
        defer { file.remove() }
        let body = Self.mixed(file, size: Int64(contents.count))
        var expected = Data("head|".utf8)
        expected.append(contents)
        expected.append(Data("|tail".utf8))
        #expect(try body.data() == expected)
        #expect(try body.data() == expected, "a body can be read more than once (a retry)")
        for size in [1, 3, 5, 7, 256, 1000, 1 << 20] {
            var collected = Data()
            var largest = 0
            for try await chunk in body.chunks(size: size) {
                collected.append(chunk)
                largest = max(largest, chunk.count)
            }
            #expect(collected == expected, "chunks of \(size)")
            #expect(largest <= size)
        }
        var request = URLRequest(url: URL(string: "https://example.com")!)
        request.httpBodyStream = body.makeInputStream()
        #expect(request.sentBody == expected)
        #expect(request.requestBody == body, "the stream carries its body's description")
    }

    @Test("a file shorter than when the request was built fails each reading with fileChanged")
    func shrunkFile() async throws {
        let file = try TemporaryFile("x.bin", contents: Data("tiny".utf8))
        defer { file.remove() }
        let body = Self.mixed(file, size: 100)
        let expected = RequestBodyError.fileChanged(path: file.url.path, expectedSize: 100)
        #expect(throws: expected) { try body.data() }
        await #expect(throws: expected) {
            for try await _ in body.chunks(size: 3) {}
        }
    }

    @Test("a file removed after the build fails with unreadableFile")
    func removedFile() throws {
        let file = try TemporaryFile("x.bin", contents: Data("abc".utf8))
        let body = Self.mixed(file, size: 3)
        file.remove()
        #expect {
            try body.data()
        } throws: { error in
            guard case .unreadableFile(let path, _) = error as? RequestBodyError else { return false }
            return path == file.url.path
        }
    }

    @Test("a request without a body, or with a stream APIKit did not make, has no requestBody")
    func noDescription() {
        var request = URLRequest(url: URL(string: "https://example.com")!)
        #expect(request.requestBody == nil)
        request.httpBodyStream = InputStream(data: Data("abc".utf8))
        #expect(request.requestBody == nil)
        #expect(request.knownBodyLength == nil)
        request.httpBody = Data("abcd".utf8)
        #expect(request.requestBody?.length == 4)
    }
}
