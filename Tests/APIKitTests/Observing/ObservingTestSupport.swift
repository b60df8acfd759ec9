import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

/// The secrets ``SecretRequest`` carries; none may appear in a default log line (the lines are
/// recorded by `LogLines`, in `APIKitTestTime`).
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
