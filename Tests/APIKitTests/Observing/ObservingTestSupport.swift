import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

/// The secrets ``SecretRequest`` carries; none may appear in a default log line.
enum LogSecrets {
    static let token = "Bearer s3cr3t-t0ken"
    static let cookie = "session=c00kie-crumb"
    static let apiKey = "k3y-val"
    static let query = "qu3ry-val"
    static let body = "b0dy-bytes"
    static let proxy = "Basic pr0xy"
    static let all = [token, "s3cr3t-t0ken", cookie, "c00kie-crumb", apiKey, query, body, proxy, "pr0xy"]
}

/// A POST carrying a secret in each place a secret can hide: Authorization, Cookie,
/// Proxy-Authorization, a custom key header, a query value and the body.
struct SecretRequest: Request, RequestConfiguration {
    @Header("Authorization") var authorization: String? = LogSecrets.token
    @Header("cookie") var cookie: String? = LogSecrets.cookie
    @Header("Proxy-Authorization") var proxy: String? = LogSecrets.proxy
    @Header("X-Api-Key") var apiKey: String? = LogSecrets.apiKey
    @Header("Accept") var accept: String? = "text/plain"
    @Query("token") var token: String? = LogSecrets.query
    @Query("page") var page: Int? = 2
    @DataBody("text/plain") var body: Data? = Data(LogSecrets.body.utf8)

    var base = stubBase
    var path = "login"
    var method: HTTPMethod = .post
    var configuration: Self { self }
    var parser: StringParser { StringParser() }
}

/// Records every event a ``RequestLogger`` receives.
final class LogRecorder: Sendable {
    let events = Locked<[RequestLogEvent]>([])
    /// Each response logged, as it is logged.
    let loggedResponses = CompletionProbe<LoggedResponse>()

    func logger(_ privacy: LogPrivacy = LogPrivacy()) -> RequestLogger {
        RequestLogger(privacy: privacy) { [events, loggedResponses] event in
            events.withLock { $0.append(event) }
            if case .response(let response) = event { loggedResponses.record(response) }
        }
    }

    var all: [RequestLogEvent] { events.withLock { $0 } }

    var requests: [LoggedRequest] {
        all.compactMap { if case .request(let request) = $0 { request } else { nil } }
    }

    var responses: [LoggedResponse] {
        all.compactMap { if case .response(let response) = $0 { response } else { nil } }
    }

    /// Every text a log line could be made of: descriptions, curl commands, URLs, header
    /// names and values, errors.
    var lines: [String] {
        all.flatMap { event -> [String] in
            switch event {
            case .request(let request):
                [request.description, request.curlCommand, request.url]
                    + request.headers.map { "\($0.key): \($0.value)" }
            case .response(let response):
                [response.description, response.request.url, response.error ?? ""]
                    + response.headers.map { "\($0.key): \($0.value)" }
            }
        }
    }
}
