import APIKit
import APIKitTestSupport
import Foundation
import MeteorAPI
import Testing

/// MeteorAPI's mocked responses: the example's declarations (Examples/MeteorAPI) sent through a
/// `StubTransport`, which answers without a network while encoding, options, status checks and parsing
/// stay the real pipeline.
@Suite("MeteorAPI example: requests answered by a mock")
struct MeteorAPITests {
    let server = URL(string: "https://meteor.test/api")!

    /// A file on disk to upload, removed by `body`'s end.
    func withFile<T>(_ contents: String, _ body: (URL) async throws -> T) async throws -> T {
        let scratch = try ScratchDirectory("meteor")
        defer { scratch.remove() }
        return try await body(try scratch.file("notes.txt", contents: Data(contents.utf8)))
    }

    @Test("an upload gets the mocked answer, sent as multipart to the client's server with a 300 s timeout")
    func uploadWithMockedResponse() async throws {
        let sent = Protected<[URLRequest]>([])  // what the stub was asked to send
        let stub = StubTransport { request in
            sent.append(request)
            return .success(body: #"{"files": {"file": "hello"}, "form": {"title": "Notes"}}"#)
        }
        let client = MeteorClient(server: server, session: Session(transport: stub))

        let response = try await withFile("hello") { file in
            try await client.perform(UploadFileRequest(file: file, title: "Notes"))
        }

        #expect(response == UploadFileRequest.Response(files: ["file": "hello"], form: ["title": "Notes"]))
        let request = try #require(sent.value.first)
        #expect(sent.value.count == 1)
        #expect(request.url?.absoluteString == "https://meteor.test/api/v1/upload")
        #expect(request.httpMethod == "POST")
        #expect(request.timeoutInterval == 300)
        let contentType = request.value(forHTTPHeaderField: "Content-Type") ?? ""
        #expect(contentType.hasPrefix("multipart/form-data; boundary="), "\(contentType)")
    }

    @Test("the mock's progress steps reach the caller of send before its completion")
    func progressFromTheMock() async throws {
        let stub = StubTransport { _ in .success(body: #"{"files": {}, "form": {}}"#) }
        let client = MeteorClient(server: server, session: Session(transport: stub))
        let steps = Protected<[TransferProgress]>([])  // recorded from the transport's queue

        let result = try await withFile("a few bytes") { file in
            await withCheckedContinuation { continuation in
                client.send(UploadFileRequest(file: file), progress: steps.append) {
                    continuation.resume(returning: $0)
                }
            }
        }

        #expect(try result.get() == UploadFileRequest.Response(files: [:], form: [:]))
        let last = try #require(steps.value.last, "no progress step")
        #expect(last.expectedBytesToSend.map { $0 > 0 && last.bytesSent == $0 } == true, "\(steps.value)")
        #expect(last.expectedBytesToReceive.map { $0 > 0 && last.bytesReceived == $0 } == true, "\(steps.value)")
    }

    @Test("a mocked user is decoded, and the request asked for that id with GET")
    func userInfo() async throws {
        let sent = Protected<[URLRequest]>([])  // what the stub was asked to send
        let stub = StubTransport { request in
            sent.append(request)
            return .success(body: #"{"id": "123", "name": "Ann"}"#)
        }
        let client = MeteorClient(server: server, session: Session(transport: stub))

        let user = try await client.perform(UserInfoRequest(id: "123"))

        #expect(user == UserInfoRequest.Response(id: "123", name: "Ann"))
        let request = try #require(sent.value.first)
        #expect(request.httpMethod == "GET")
        #expect(request.url?.absoluteString == "https://meteor.test/api/v1/user?id=123")
    }

    @Test("a mocked transport failure is a .transportFailed carrying the URLError")
    func offline() async throws {
        let client = MeteorClient(
            server: server,
            session: Session(transport: StubTransport { _ in .failure(URLError(.notConnectedToInternet)) })
        )

        let error = await #expect(throws: RequestError.self) {
            try await client.perform(UserInfoRequest(id: "1"))
        }

        guard case .transportFailed(let underlying as URLError, _) = error else {
            Issue.record("expected .transportFailed(URLError), got \(String(describing: error))")
            return
        }
        #expect(underlying.code == .notConnectedToInternet)
    }

    @Test("a mocked 404 is .unacceptableStatusCode, not a parsing error")
    func notFound() async throws {
        let client = MeteorClient(
            server: server,
            session: Session(transport: StubTransport { _ in .success(status: 404, body: "<html>Not Found</html>") })
        )

        let error = await #expect(throws: RequestError.self) {
            try await client.perform(UserInfoRequest(id: "404"))
        }

        #expect(error?.statusCode == 404)
        #expect(error?.stage == .responseValidation)
    }
}
