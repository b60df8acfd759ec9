import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

/// Issue 6's security checks, in one place: CR, LF and NUL in a header name or value, a path
/// value or a multipart name or filename are rejected before anything is sent, and a path value
/// cannot leave its segment.
@Suite("Injection: control characters are rejected before sending; a path value stays one segment")
struct InjectionRejectionTests {
    static let controls = ["\r", "\n", "\r\n", "\u{0}"]

    struct HeaderValue: RequestConfiguration, Sendable {
        @Header("X-Value") var value: String? = nil
        init(_ value: String) { self.value = value }
    }

    struct HeaderName: RequestConfiguration, Sendable {
        @Header("placeholder") var value: String? = "v"
        init(_ name: String) { _value = Header(wrappedValue: "v", name) }
    }

    struct DictHeader: RequestConfiguration, Sendable {
        @HeaderDict var headers: [String: String] = [:]
        init(_ headers: [String: String]) { self.headers = headers }
    }

    struct Segment: RequestConfiguration, Sendable {
        var v: PathSegment<String>
        init(_ value: String) { v = PathSegment(wrappedValue: value, "v") }
    }

    struct PartName: RequestConfiguration, Sendable {
        @Part("placeholder") var text = "v"
        init(_ name: String) { _text = Part(wrappedValue: "v", name) }
    }

    struct Filename: RequestConfiguration, Sendable {
        @FilePart("f") var file = MultipartFile.data(Data("x".utf8), filename: "a.txt")
        init(_ filename: String) { file = .data(Data("x".utf8), filename: filename) }
    }

    /// Every place a control character may hide.
    static let places = [
        "@Header value", "@Header name", "@HeaderDict value", "@HeaderDict name", "@PathSegment value", "@Part name",
        "@FilePart filename",
    ]

    /// The build error of a request with `control` in `place`.
    static func buildError(_ place: String, _ control: String) -> BuildError? {
        switch place {
        case "@Header value": APIKitTests.buildError(HeaderValue("a\(control)X-Evil: 1"))
        case "@Header name": APIKitTests.buildError(HeaderName("X-A\(control)B"))
        case "@HeaderDict value": APIKitTests.buildError(DictHeader(["X-A": "a\(control)X-Evil: 1"]))
        case "@HeaderDict name": APIKitTests.buildError(DictHeader(["X-A\(control)B": "v"]))
        case "@PathSegment value": APIKitTests.buildError(Segment("a\(control)b"), path: "x/{v}")
        case "@Part name": APIKitTests.buildError(PartName("a\(control)b"), method: .post)
        default: APIKitTests.buildError(Filename("a\(control)b.txt"), method: .post)
        }
    }

    @Test("CR, LF and NUL fail the build with the matching BuildError, in every place", arguments: controls)
    func rejected(_ control: String) {
        for place in Self.places {
            guard let error = Self.buildError(place, control) else {
                Issue.record("\(place) with \(control.debugDescription) was built")
                continue
            }
            switch (place, error) {
            case ("@Header value", .invalidHeaderValue(name: "X-Value", field: "value")),
                ("@Header name", .invalidHeaderName(_, field: "value")),
                ("@HeaderDict value", .invalidHeaderValue(name: "X-A", field: "headers")),
                ("@HeaderDict name", .invalidHeaderName(_, field: "headers")),
                ("@PathSegment value", .invalidPathValue("v", field: "v", reason: .controlCharacter)),
                ("@Part name", .invalidPartName(_, field: "text")),
                ("@FilePart filename", .invalidFilename(_, field: "file", key: "f")):
                break
            default:
                Issue.record("\(place) with \(control.debugDescription): unexpected \(error)")
            }
            let text = String(describing: error)
            #expect(!text.contains("\r") && !text.contains("\n") && !text.contains("\u{0}"), "\(place): \(text)")
            #expect(!text.contains("X-Evil: 1"), "\(place): the header value is printed: \(text)")
        }
    }

    struct TwiceKeyed: RequestConfiguration, Sendable {
        @JSON("a\nb") var first = 1
        @JSON("a\nb") var second = 2
    }

    struct NaNKeyed: RequestConfiguration, Sendable {
        @Query("a\r\nb") var value = Double.nan
    }

    @Test("a key named in a build error is escaped: its control characters never reach a log line")
    func keysEscaped() throws {
        for error in [APIKitTests.buildError(TwiceKeyed(), method: .post), APIKitTests.buildError(NaNKeyed())] {
            let text = String(describing: try #require(error))
            #expect(!text.contains("\n") && !text.contains("\r"), "\(text)")
            #expect(text.contains(#""a\"#), "the key is still named, escaped: \(text)")
        }
    }

    /// A parser whose media type, sent as `Accept`, holds `control`.
    struct SneakyParser: Parser {
        let control: String
        var contentType: String? { "application/json\(control)X-Evil: 1" }
        func parse(data: Data) throws -> Data { data }
    }

    struct SneakyRequest: Request, RequestConfiguration {
        let control: String
        var base: URL { URL(string: "https://api.example.test")! }
        var path: String { "items" }
        var method: HTTPMethod { .get }
        var parser: SneakyParser { SneakyParser(control: control) }
        func response(from object: Data, urlResponse: URLResponse) throws -> Data { object }
    }

    @Test("a parser's content type, sent as Accept, is held to the rules of every header value", arguments: controls)
    func parserContentType(_ control: String) {
        do {
            let built = try SneakyRequest(control: control).makeURLRequest()
            Issue.record("built with Accept \(String(describing: built.value(forHTTPHeaderField: "Accept")))")
        } catch {
            guard case .buildFailed(.invalidHeaderValue(name: "Accept", field: "SneakyParser.contentType"), _) = error
            else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(!String(describing: error).contains("X-Evil: 1"))
        }
    }

    @Test("a rejected request never reaches the transport, through perform and async response()")
    func nothingSent() async {
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let session = Session(transport: transport)
        let requests: [any Request] = [
            TestRequest(configuration: HeaderValue("a\r\nX-Evil: 1")),
            TestRequest(configuration: HeaderName("X-A\r\nB")),
            TestRequest(path: "x/{v}", configuration: Segment("a\r\nb")),
            TestRequest(path: "x/{v}", configuration: Segment("..")),
            TestRequest(method: .post, configuration: PartName("a\r\nb")),
            TestRequest(method: .post, configuration: Filename("a\r\nb.txt")),
        ]
        for request in requests {
            let stage = await Self.failureStage(of: request, session: session)
            #expect(stage == .build, "\(type(of: request)): \(String(describing: stage))")
        }
        #expect(transport.sentRequests.isEmpty)
    }

    private static func failureStage(of request: some Request, session: Session) async -> RequestError.Stage? {
        let probe = CompletionProbe<RequestError.Stage?>()
        request.perform(using: session) { result in probe.record(result.errorValue?.stage) }
        let performed = await probe.first() ?? nil
        let awaited = await request.result(session: session).errorValue?.stage
        return performed == awaited ? performed : nil
    }

    @Test(
        "a path value cannot leave its segment: dot segments are rejected, encoded dots and slashes stay literal",
        arguments: [
            "%2e%2e", "%2E%2E", ".%2e", "%2e.", "%2e", "../admin", "..%2Fadmin", "a/../../b", "/", "//", "..\\admin",
            "...", "a..", "%252e%252e", "?x=1", "#frag", ";..", "．．",
        ]
    )
    func staysOneSegment(_ value: String) throws {
        let request = try urlRequest(Segment(value), path: "users/{v}/posts")
        let url = try #require(request.url)
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        #expect(segments.count == 4, "\(components.percentEncodedPath)")
        #expect(segments.first == "" && segments[1] == "users" && segments.last == "posts")
        // the segment decodes to the value, byte for byte, and is never a dot segment
        #expect(String(segments[2]).removingPercentEncoding == value)
        #expect(segments[2] != "." && segments[2] != "..")
        // nothing for a URL resolver to normalise away, and no query or fragment was opened
        #expect(url.standardized.absoluteString == url.absoluteString)
        #expect(components.percentEncodedQuery == nil && components.fragment == nil)
    }

    @Test("'.' and '..' are rejected as path values", arguments: [".", ".."])
    func dotSegments(_ value: String) {
        guard
            case .invalidPathValue("v", field: "v", reason: .dotSegment) = APIKitTests.buildError(
                Segment(value), path: "x/{v}")
        else {
            Issue.record("expected .dotSegment for \(value)")
            return
        }
    }
}
