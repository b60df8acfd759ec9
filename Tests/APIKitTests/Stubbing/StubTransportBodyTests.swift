import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

/// The way the testing article ("Checking the body a stub receives") tells users to read a
/// body in a ``StubTransport``: `request.requestBody?.data()`, for bodies in memory and bodies
/// streamed from disk alike, through the whole pipeline. The article's example is type-checked
/// by scripts/docs.sh; this runs it.
@Suite("StubTransport: reading the body a stub receives")
struct StubTransportBodyTests {
    struct AvatarUpload: Request, RequestConfiguration {
        @Part("user") var user = "ada"
        @FilePart("avatar") var avatar: MultipartFile? = nil
        let base = URL(string: "https://api.example.com/v1")!
        let path = "avatar"
        let method: HTTPMethod = .post
        var configuration: Self { self }
        var parser: RawDataParser { RawDataParser() }
    }

    struct Backup: Request, RequestConfiguration {
        @FileBody("application/x-tar") var file: URL? = nil
        let base = URL(string: "https://api.example.com/v1")!
        let path = "backup"
        let method: HTTPMethod = .put
        var configuration: Self { self }
        var parser: RawDataParser { RawDataParser() }
    }

    /// An interceptor that copies the request, as many do when they add a header.
    struct AddsHeader: AdaptingInterceptor {
        func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
            var copy = urlRequest
            copy.setValue("1", forHTTPHeaderField: "X-Adapted")
            return copy
        }
    }

    @Test("the article's example: a multipart body with a file from disk reads back whole, twice")
    func multipartFromDisk() async throws {
        let file = try TemporaryFile("avatar.png", contents: Data("PNG bytes".utf8))
        defer { file.remove() }
        let seen = Locked<[String]>([])

        let stub = StubTransport { request in
            do {
                #expect(request.httpBody == nil, "a file from disk is streamed, not in httpBody")
                #expect(request.value(forHTTPHeaderField: "X-Adapted") == "1")
                let body = try #require(request.requestBody)
                let sent = String(decoding: try body.data(), as: UTF8.self)
                #expect(try body.data() == Data(sent.utf8), "reading does not use the body up")
                #expect(body.length == Int64(sent.utf8.count))
                seen.withLock { $0.append(sent) }
                return .success(status: 201)
            } catch {
                return .failure(error)
            }
        }
        let session = Session(transport: stub, interceptors: [AddsHeader()])
        _ = try await AvatarUpload(avatar: .file(file.url)).response(using: session)

        let sent = try #require(seen.withLock { $0 }.first)
        #expect(sent.contains(#"name="user""#) && sent.contains("ada"))
        #expect(sent.contains(#"name="avatar"; filename="avatar.png""#))
        #expect(sent.contains("Content-Type: image/png"))
        #expect(sent.contains("PNG bytes"))
    }

    @Test("a @FileBody reads back as the file's bytes")
    func fileBody() async throws {
        let contents = allByteValues(repeated: 300)
        let file = try TemporaryFile("backup.tar", contents: contents)
        defer { file.remove() }
        let seen = Locked<Data?>(nil)

        let stub = StubTransport { request in
            do {
                let body = try #require(request.requestBody)
                #expect(body.fileURL == file.url)
                seen.withLock { $0 = try? body.data() }
                return .success(status: 200)
            } catch {
                return .failure(error)
            }
        }
        _ = try await Backup(file: file.url).response(using: Session(transport: stub))
        #expect(seen.withLock { $0 } == contents)
    }

    @Test("a file that cannot be read in the stub fails the call with RequestBodyError, not an empty body")
    func unreadableFileFailsTheCall() async throws {
        let file = try TemporaryFile("avatar.png", contents: Data("PNG bytes".utf8))
        defer { file.remove() }

        let stub = StubTransport { request in
            do {
                try Data().write(to: file.url)  // the file shrinks after the request was built
                _ = try request.requestBody?.data()
                return .success(status: 201)
            } catch {
                return .failure(error)
            }
        }
        do {
            _ = try await AvatarUpload(avatar: .file(file.url)).response(using: Session(transport: stub))
            Issue.record("the call succeeded although the stub could not read the body")
        } catch {
            guard case .transportFailed(let underlying, _) = error,
                case .fileChanged(let path, expectedSize: 9)? = underlying as? RequestBodyError
            else {
                Issue.record("expected transportFailed(RequestBodyError.fileChanged), got \(error)")
                return
            }
            #expect(path == file.url.path)
        }
    }
}
