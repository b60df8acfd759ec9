import Foundation
import Testing

@testable import APIKit

@Suite("CurlCommand: a shell-quoted, redacted curl command line")
struct CurlCommandTests {
    @Test("words made only of literal characters stay bare; others are single-quoted, ' as '\\''")
    func quoting() {
        #expect(CurlCommand.quoted("https://a.test/v1/x") == "https://a.test/v1/x")
        #expect(CurlCommand.quoted("a b") == "'a b'")
        #expect(CurlCommand.quoted("it's") == #"'it'\''s'"#)
        #expect(CurlCommand.quoted("$HOME") == "'$HOME'")
        #expect(CurlCommand.quoted("a`b`;c") == "'a`b`;c'")
        #expect(CurlCommand.quoted("é") == "'é'")
        #expect(CurlCommand.quoted("") == "''")
        #expect(CurlCommand.quoted("x\ny") == "'x\ny'")
    }

    @Test("a GET has no -X; headers sorted; harmless values shown, others ***; query values ***")
    func getCommand() throws {
        var request = URLRequest(url: try #require(URL(string: "https://user:pw@a.test/v1/items?q=cat's&page=2#top")))
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("Bearer abc", forHTTPHeaderField: "authorization")
        request.setValue("v", forHTTPHeaderField: "X-Trace")

        let command = CurlCommand.make(for: request, privacy: LogPrivacy())

        #expect(
            command
                == "curl 'https://a.test/v1/items?q=***&page=***' -H 'Accept: application/json' "
                + "-H 'Authorization: ***' -H 'X-Trace: ***'"
        )
    }

    @Test("with every opt-in: values, query and text body shown (quoted); the sensitive ones still ***")
    func revealed() throws {
        var request = URLRequest(url: try #require(URL(string: "https://a.test/v1/items?q=cat's")))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"name":"O'Brien"}"#.utf8)
        request.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
        request.setValue("a=b", forHTTPHeaderField: "Cookie")
        request.setValue("Basic x", forHTTPHeaderField: "PROXY-AUTHORIZATION")
        request.setValue("k", forHTTPHeaderField: "x-api-key")
        request.setValue("v", forHTTPHeaderField: "X-Trace")
        let privacy = LogPrivacy(
            sensitiveHeaders: ["X-API-Key"],
            revealsHeaderValues: true,
            revealsQueryValues: true,
            revealsBodies: true
        )

        let command = CurlCommand.make(for: request, privacy: privacy)

        #expect(
            command
                == #"curl -X POST 'https://a.test/v1/items?q=cat'\''s' -H 'Authorization: ***' -H 'Cookie: ***' "#
                + #"-H 'Proxy-Authorization: ***' -H 'X-Api-Key: ***' -H 'X-Trace: v' "#
                + #"--data-raw '{"name":"O'\''Brien"}'"#
        )
    }

    @Test("a URL curl would read as a pattern goes after --globoff; a word starting with = is quoted for zsh")
    func globsAndEquals() throws {
        var request = URLRequest(url: try #require(URL(string: "http://[::1]:8080/x")))
        request.httpMethod = "POST"
        request.httpBody = Data("=ls".utf8)
        #expect(
            CurlCommand.make(for: request, privacy: LogPrivacy(revealsBodies: true))
                == "curl -X POST --globoff 'http://[::1]:8080/x' --data-raw '=ls'")
        let plain = URLRequest(url: try #require(URL(string: "https://a.test/x?a=b")))
        #expect(CurlCommand.make(for: plain, privacy: LogPrivacy()) == "curl 'https://a.test/x?a=***'")
    }

    @Test("a revealed body starting with @ is sent as written, not read from a file; a GET with a body says so")
    func revealedBodyIsRaw() throws {
        var request = URLRequest(url: try #require(URL(string: "https://a.test/x")))
        request.httpBody = Data("@/etc/passwd".utf8)
        #expect(
            CurlCommand.make(for: request, privacy: LogPrivacy(revealsBodies: true))
                == "curl -X GET https://a.test/x --data-raw @/etc/passwd"
        )
        #expect(
            CurlCommand.make(for: request, privacy: LogPrivacy())
                == "curl -X GET https://a.test/x --data-binary '@<request body: 12 bytes, not logged>'"
        )
    }

    @Test("a body not revealed, or not UTF-8, is a placeholder with its size; HEAD is --head")
    func bodyPlaceholders() throws {
        var request = URLRequest(url: try #require(URL(string: "https://a.test/x")))
        request.httpMethod = "PUT"
        request.httpBody = Data("secret".utf8)
        #expect(
            CurlCommand.make(for: request, privacy: LogPrivacy())
                == "curl -X PUT https://a.test/x --data-binary '@<request body: 6 bytes, not logged>'"
        )
        request.httpBody = Data([0xFF, 0xFE, 0x00])
        #expect(
            CurlCommand.make(for: request, privacy: LogPrivacy(revealsBodies: true))
                == "curl -X PUT https://a.test/x --data-binary '@<request body: 3 bytes, not logged>'"
        )
        request.httpMethod = "HEAD"
        request.httpBody = nil
        #expect(CurlCommand.make(for: request, privacy: LogPrivacy()) == "curl --head https://a.test/x")
    }

    @Test("a multipart body streamed from disk is a --data-binary @ placeholder with its length, never read")
    func multipartStream() throws {
        let file = try TemporaryFile("photo.jpg", contents: Data(LogSecrets.body.utf8))
        defer { file.remove() }
        struct Upload: Request, RequestConfiguration {
            @Part("title") var title = "Sea"
            @FilePart("file") var file: MultipartFile? = nil
            var base = stubBase
            var path = "upload"
            var method: HTTPMethod = .post
            var configuration: Self { self }
            var parser: StringParser { StringParser() }
        }
        let urlRequest = try Upload(file: .file(file.url)).encodedURLRequest()
        let length = try #require(urlRequest.knownBodyLength)
        #expect(urlRequest.hasBodyStream)
        #expect(length > Int64(LogSecrets.body.utf8.count))

        let command = CurlCommand.make(for: urlRequest, privacy: LogPrivacy(revealsBodies: true))

        #expect(command.hasPrefix("curl -X POST https://api.example.test/v1/upload "))
        #expect(command.contains("-H 'Content-Type: multipart/form-data; boundary=APIKit-"))
        #expect(command.hasSuffix(" --data-binary '@<request body: streamed, \(length) bytes>'"))
        #expect(!command.contains(LogSecrets.body))
    }
}
