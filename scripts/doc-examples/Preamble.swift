// The names the doc comments' examples use without declaring them, declared once. scripts/docs.sh
// compiles this file beside every example of the doc comments and READMEs (its header says how
// an example is wrapped). Keep each declaration as plain as what a reader would imagine.

import APIKit
import APIKitParsers
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: Leaving out what an example is not about

// A request in an example may leave out what it is not about (`// ...`): its endpoint, and its parser
// and response (a `Request` then reads `Data`, a `JSONDecodableRequest` decodes `NoContent`).
extension Request {
    var base: URL { URL(string: "https://api.example.com/v1")! }
    var path: String { "" }
    var method: HTTPMethod { .get }
    var parser: RawDataParser { RawDataParser() }
    func response(from object: Data, urlResponse: URLResponse) throws -> Data { object }
}

extension JSONDecodableRequest {
    typealias Response = NoContent
}

/// The type whose body holds an example made only of properties and methods.
protocol DocExampleRequest: JSONDecodableRequest, RequestConfiguration {}

// MARK: Values

let session = Session()
let api = Session()
let transport: any Transport = URLSessionTransport.shared
let token = "token"
let savedToken = "token"
let apiKey = "key"
let url = URL(string: "https://api.example.com/v1/report")!
let file = URL(fileURLWithPath: "/tmp/upload.bin")
let destination = URL(fileURLWithPath: "/tmp/report.pdf")
let reportURL = destination
let partial = URL(fileURLWithPath: "/tmp/report.pdf.partial")
let resume = try! JSONDecoder().decode(
    DownloadResumeData.self,
    from: Data(#"{"partialFileURL": "file:///tmp/report.pdf.partial", "bytesReceived": 1024}"#.utf8))
let urlRequest = URLRequest(url: url)
let response: URLResponse = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)!
let httpResponse = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)!
/// A response on its way back through a session's chain (an `Interceptor`'s `next` returns one).
let callResponse = CallResponse(urlResponse: httpResponse, data: Data())
let body = Data(#"{"kind": "user", "payload": {"id": 1, "name": "Ada"}}"#.utf8)
let chunk = Data("{\"id\":1}\n".utf8)
let request = UserRequest(id: 1)
let upload = UploadRequest(file: file)
let client = AuthClient()
let store = TokenStore()

// What a transport's implementation is handed.
let connection = EngineConnection()
var requestBody: RequestBody { urlRequest.requestBody! }  // never run
let completion: @Sendable (Result<URLResponse, any Error>) -> Void = { _ in }
let onEvent: @Sendable (TransportStreamEvent) -> Void = { _ in }

/// The error a `catch` block has caught (a `RequestError` has no public initializer: never run).
var error: RequestError { preconditionFailure("the examples are only type-checked") }
/// The event an observer was handed (a `CallEvent` has no public initializer: never run).
var event: CallEvent { preconditionFailure("the examples are only type-checked") }
/// The context an interceptor was handed (never run).
var context: RequestContext { preconditionFailure("the examples are only type-checked") }

func showLogin(reason: any Error) {}
func slowly(_ chunk: Data) async {}

#if !canImport(os)
    /// Stands in for Apple's `os_log`, which Linux lacks.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    func os_log(_ message: StaticString, _ arguments: any CVarArg...) {}
#endif

// MARK: Types

struct User: Decodable, Sendable {
    let id: Int
    let name: String
}

struct Item: Codable, Sendable {
    let id: Int
}

struct Event: Codable, Sendable {
    var at = Date()
    var open = true
}

struct Metadata: Encodable, Sendable {
    var camera = "X100"
}

struct Filter: Encodable, Sendable {
    var status = "open"
}

struct APIFailure: Decodable, Sendable {
    let result: String
    let errors: [String]
}

typealias LoginFailure = APIFailure

struct UserRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = User
    @Query("id") var id: Int? = nil
    let path = "user"
}

struct ReportRequest: Request, RequestConfiguration {
    @PathSegment("id") var id = 0
    let path = "reports/{id}"
    var parser: RawDataParser { RawDataParser() }
    func response(from object: Data, urlResponse: URLResponse) throws -> Data { object }
}

struct UploadRequest: JSONDecodableRequest, RequestConfiguration {
    @FileBody("application/octet-stream") var file: URL? = nil
    let method: HTTPMethod = .post
}

/// The README's request.
struct SetPushRequest: JSONDecodableRequest, RequestConfiguration {
    @Header("TOKEN") var accessToken = nil
    @Field("push_system_msg") var pushSystemMessage: Bool? = nil
    @Field("push_reply_me") var pushReplyMe: Bool? = nil
    @Field("push_favorited") var pushFavourite: Bool? = nil

    struct Response: Codable {
        var code: Int
        var msg: String?
    }

    let path = "config/set_push"
    let method: HTTPMethod = .post
}

typealias GetUser = UserRequest

struct SearchGIFs: JSONDecodableRequest, RequestConfiguration {
    @Query("q") var query = ""
}

/// A request whose body is read as a stream.
struct StreamingRequest: Request, RequestConfiguration {
    var parser: RawDataParser { RawDataParser() }
    func response(from object: Data, urlResponse: URLResponse) throws -> Data { object }
}

typealias EventsRequest = StreamingRequest
typealias Events = StreamingRequest
typealias FeedRequest = StreamingRequest
typealias LogRequest = StreamingRequest
typealias TailRequest = StreamingRequest
typealias GenerateRequest = StreamingRequest

struct CompletionRequest: JSONDecodableRequest, RequestConfiguration {
    @JSON("prompt") var prompt = ""
    let method: HTTPMethod = .post
}

/// Hands out access tokens.
struct AuthClient: Sendable {
    func newAccessToken() async throws -> String { "token" }
}

/// The Authenticator of `Authenticator`'s example.
struct BearerAuthenticator: Authenticator {
    let auth: AuthClient

    func apply(_ token: String, to urlRequest: inout URLRequest) throws {
        urlRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    }

    func refresh() async throws -> String {
        try await auth.newAccessToken()
    }
}

actor ResponseStore {
    func response(for urlRequest: URLRequest) -> CallResponse? { nil }
}

actor TokenStore {
    var current = "token"
}

/// The Interceptor of `Interceptor`'s example.
struct BearerToken: Interceptor {
    let tokens: TokenStore

    func intercept(
        _ urlRequest: URLRequest, context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        var request = urlRequest
        request.setValue("Bearer \(await tokens.current)", forHTTPHeaderField: "Authorization")
        return try await next(request)
    }
}

/// A connection of some other HTTP engine.
struct EngineConnection: Sendable {
    func write(_ chunk: Data) async throws {}
}

/// A transfer of some other HTTP engine.
struct EngineTransfer: Sendable {
    func abort() {}
}
