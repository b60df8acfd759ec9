import APIKitTestSupport
import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

/// `Content-Length`, `Transfer-Encoding` and the other headers that frame the message belong
/// to the transport: set anywhere else, the request fails with a typed error naming where the
/// header came from, and nothing is sent.
@Suite("Framing headers")
struct FramingHeaderTests {
    struct Posted: Request, RequestConfiguration {
        typealias Response = Data
        var base: URL { URL(string: "https://api.example.com")! }
        var path: String { "upload" }
        var method: HTTPMethod { .post }
        var parser: RawDataParser { RawDataParser() }
        var configuration: Self { self }
        @JSON("name") var name = "file"
    }

    struct DeclaresLength: RequestConfiguration, Sendable {
        @Header("content-length") var length: String? = "12"
    }

    struct DeclaresEncoding: RequestConfiguration, Sendable {
        @Header("X-Id") var id: String? = "1"
        @Header("Transfer-Encoding") var encoding: String? = "chunked"
    }

    struct DictionaryDeclares: RequestConfiguration, Sendable {
        @HeaderDict var extra: [String: String] = ["Connection": "close"]
    }

    struct AddsInIntercept: Request, RequestConfiguration {
        typealias Response = Data
        var base: URL { URL(string: "https://api.example.com")! }
        var path: String { "upload" }
        var method: HTTPMethod { .post }
        var parser: RawDataParser { RawDataParser() }
        var configuration: Self { self }
        @JSON("name") var name = "file"

        func intercept(urlRequest: URLRequest) throws -> URLRequest {
            var request = urlRequest
            request.setValue("5", forHTTPHeaderField: "Content-Length")
            return request
        }
    }

    struct Chunking: AdaptingInterceptor {
        func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
            var request = urlRequest
            request.setValue("chunked", forHTTPHeaderField: "Transfer-Encoding")
            return request
        }
    }

    struct LengthSigning: Authenticator {
        func apply(_ credential: String, to urlRequest: inout URLRequest) throws {
            urlRequest.setValue("Bearer \(credential)", forHTTPHeaderField: "Authorization")
            urlRequest.setValue("0", forHTTPHeaderField: "Content-Length")
        }

        func refresh() async throws -> String { "token" }
    }

    /// A transport that counts what reaches it.
    static func countingSession(_ sent: Locked<Int>, configure: (inout Session) -> Void = { _ in }) -> Session {
        var session = Session(
            transport: StubTransport { _ in
                sent.withLock { $0 += 1 }
                return .success(body: "{}")
            })
        configure(&session)
        return session
    }

    @Test("every framing header name is recognised, in any case; others are not")
    func names() {
        for name in HTTPSyntax.framingHeaderNames {
            #expect(HTTPSyntax.isFramingHeader(name))
            #expect(HTTPSyntax.isFramingHeader(name.uppercased()))
            #expect(HTTPSyntax.isFramingHeader(name.lowercased()))
        }
        for name in ["Content-Type", "Content-Language", "Accept", "X-Length", "Te", "Trailers", "Content-Lengths"] {
            #expect(HTTPSyntax.isFramingHeader(name) == (name == "Te"), "\(name)")
        }
    }

    /// The framing error of `error`, when it is one.
    static func framing(build error: BuildError?) -> (name: String, source: HeaderSource)? {
        guard case .framingHeader(let name, let source) = error else { return nil }
        return (name, source)
    }

    /// The framing error a request failed with, when it did with one.
    static func framing(_ error: any Error) -> (name: String, source: HeaderSource)? {
        guard case .buildFailed(let buildError, _) = error as? RequestError else { return nil }
        return framing(build: buildError)
    }

    @Test("a @Header declaring Content-Length fails the build naming the property, in both readings")
    func declaredByHeader() {
        let length = Self.framing(build: buildError(DeclaresLength(), method: .post))
        #expect(length?.name == "content-length")
        #expect(length?.source == .property("length"))
        let encoding = Self.framing(build: buildError(DeclaresEncoding(), method: .post))
        #expect(encoding?.name == "Transfer-Encoding")
        #expect(encoding?.source == .property("encoding"))
        #expect(buildError(DeclaresLength(), method: .post)?.fields == ["length"])
    }

    @Test("a @HeaderDict entry naming Connection fails the build naming the property")
    func declaredByDictionary() {
        let error = Self.framing(build: buildError(DictionaryDeclares()))
        #expect(error?.name == "Connection")
        #expect(error?.source == .property("extra"))
    }

    @Test("Session.defaultHeaders with Content-Length fails every request; nothing is sent")
    func sessionDefault() async {
        let sent = Locked(0)
        let session = Self.countingSession(sent) { $0.defaultHeaders = ["Content-Length": "3"] }
        await #expect {
            _ = try await Posted().response(using: session)
        } throws: { error in
            Self.framing(error)?.name == "Content-Length" && Self.framing(error)?.source == .sessionDefaultHeaders
        }
        #expect(sent.withLock { $0 } == 0)
    }

    @Test("intercept(urlRequest:) adding Content-Length fails, in perform and in makeURLRequest")
    func requestIntercept() async {
        let sent = Locked(0)
        let session = Self.countingSession(sent)
        await #expect {
            _ = try await AddsInIntercept().response(using: session)
        } throws: { error in
            Self.framing(error)?.name == "Content-Length" && Self.framing(error)?.source == .requestIntercept
        }
        do {
            _ = try AddsInIntercept().makeURLRequest()
            Issue.record("makeURLRequest() accepted a Content-Length added by intercept(urlRequest:)")
        } catch {
            #expect(Self.framing(error)?.source == .requestIntercept)
        }
        #expect(sent.withLock { $0 } == 0)
    }

    @Test("an interceptor adding Transfer-Encoding fails naming its type; nothing is sent")
    func interceptor() async {
        let sent = Locked(0)
        let session = Self.countingSession(sent) { $0.interceptors = [Chunking()] }
        await #expect {
            _ = try await Posted().response(using: session)
        } throws: { error in
            Self.framing(error)?.source == .interceptor("Chunking") && "\(error)".contains("interceptor `Chunking`")
        }
        #expect(sent.withLock { $0 } == 0)
    }

    @Test("an interceptor adding a framing header fails on the retry path too")
    func interceptorWithRetries() async {
        let sent = Locked(0)
        let session = Self.countingSession(sent) {
            $0.interceptors = [Chunking()]
            $0.retryPolicy = RetryPolicy(maxAttempts: 3)
        }
        await #expect {
            _ = try await Posted().response(using: session)
        } throws: { error in
            Self.framing(error)?.source == .interceptor("Chunking") && (error as? RequestError)?.context.attempts == 1
        }
        #expect(sent.withLock { $0 } == 0)
    }

    @Test("an authenticator adding Content-Length fails naming its type; nothing is sent")
    func authenticator() async {
        let sent = Locked(0)
        let session = Self.countingSession(sent) {
            $0.credentialStore = CredentialStore(LengthSigning(), credential: "t")
        }
        await #expect {
            _ = try await Posted().response(using: session)
        } throws: { error in
            Self.framing(error)?.source == .authenticator("LengthSigning")
        }
        #expect(sent.withLock { $0 } == 0)
    }

    @Test("the error's description names the header and where it came from, never a value")
    func description() {
        let error = BuildError.framingHeader("Content-Length", source: .sessionDefaultHeaders)
        #expect("\(error)".contains("\"Content-Length\" set by Session.defaultHeaders"))
        #expect(HeaderSource.property("size").phrase == "property `size`")
    }
}
