// Example: an app's API that injects a token into every call and turns `{"result": "error", ...}`
// bodies into domain errors, written the way the Magics seed (001) works.
//
// Magics puts everything one API's requests share into an API class: the base URL, `modify(request:)`
// which adds the stored token (`X-Auth-Token`) to every request, and `hasErrorFor(json:...)` which reads
// every answer — `"result": "success"` passes, anything else becomes `ResponseError(code, message)` from
// `errors[0]` (100 when the server gives no details, 101 when the answer is empty). Each endpoint is an
// interactor naming its relative URL, its method and its parameters.
//
// In APIKit the API class is a `Session` with two interceptors: `AuthToken` adds the token kept in
// a `TokenStore` (an actor; Magics uses the keychain) before `next`, `ResultCheck` reads every body and throws
// an `AppError`, which reaches the caller as `RequestError.responseInterceptorFailed(AppError, ...)`
// (`error.appError` below). Interactors become requests sharing the `AppRequest` protocol.
//
// A local httpbin plays the app's server (`bash scripts/run-examples.sh AppAPIExample`): /anything
// echoes the token and the form fields it received, and /base64/<answer> answers whatever JSON the
// example wants — success and error envelopes. The example checks each outcome and exits 1 if one
// differs.
import APIKit

// MARK: - The API: what every request shares

/// Where the token lives between launches (Magics keeps it in the keychain).
actor TokenStore {
    private(set) var token: String?

    func set(_ token: String?) {
        self.token = token
    }
}

/// The app's domain error, Magics' `ResponseError`.
struct AppError: Error, Equatable, Sendable {
    var code: Int
    var message: String

    static let unknown = AppError(code: 100, message: "An unknown error occurred. Please try again later.")
    static let emptyAnswer = AppError(code: 101, message: "The server sent an empty answer. Please try again later.")
}

/// Magics' `modify(request:)`: every request carries the current token, when there is one.
struct AuthToken: Interceptor {
    let tokens: TokenStore

    func intercept(
        _ urlRequest: URLRequest, context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        var request = urlRequest
        if let token = await tokens.token {
            request.setValue(token, forHTTPHeaderField: "X-Auth-Token")
        }
        return try await next(request)
    }
}

/// Magics' `hasErrorFor(json:...)`: reads every answer, whatever its status.
///
/// An answer that is not a JSON object is `AppError.emptyAnswer`; `"result": "success"` passes; any other
/// `result` is the first of `errors`, or `AppError.unknown` without one. An object with no `result` at all
/// is not an envelope and passes too (Magics would reject it; httpbin's echo, which plays some endpoints
/// here, has none).
struct ResultCheck: Interceptor {
    struct Envelope: Decodable {
        struct Detail: Decodable {
            var code: Int
            var message: String
        }

        var result: String?
        var errors: [Detail]?
    }

    func intercept(
        _ urlRequest: URLRequest, context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        let response = try await next(urlRequest)
        guard let data = response.data, let envelope = try? JSONDecoder().decode(Envelope.self, from: data) else {
            throw AppError.emptyAnswer
        }
        guard let result = envelope.result, result != "success" else { return response }
        guard let first = envelope.errors?.first else { throw AppError.unknown }
        throw AppError(code: first.code, message: first.message)
    }
}

enum AppAPI {
    /// `https://base.com/api` in production; here httpbin's echo under the same path.
    static let base: URL = server.appendingPathComponent("anything/api")

    static let tokens = TokenStore()

    /// The API "class": the token goes out with every request, every answer is checked.
    static let session = Session(interceptors: [AuthToken(tokens: tokens), ResultCheck()])
}

extension RequestError {
    /// The app's error the server reported, if that is why the request failed.
    var appError: AppError? { underlyingError as? AppError }
}

// MARK: - The interactors

/// What makes a request one of the app's: its base, GET unless it says otherwise, and `send`.
protocol AppRequest: JSONDecodableRequest, RequestConfiguration where Response: Sendable {}

extension AppRequest {
    var base: URL { AppAPI.base }
    var method: HTTPMethod { .get }
    var configuration: Self { self }

    func send() async throws(RequestError) -> Response {
        try await response(using: AppAPI.session)
    }
}

/// What httpbin's echo answers: the headers and form fields it received.
struct Echo: Decodable, Sendable {
    var url: String
    var headers: [String: String]
    var form: [String: String]
}

/// Magics' minimal interactor: `GET user/logout`.
struct Logout: AppRequest {
    typealias Response = Echo
    var path: String { "user/logout" }
}

/// Magics' `EditPasswordInteractor`: `POST changePassword` with a form field.
struct EditPassword: AppRequest {
    typealias Response = Echo
    @Field("newPassword") var newPassword = ""
    var method: HTTPMethod { .post }
    var path: String { "changePassword" }
}

/// Not part of the app: makes httpbin answer `json` (`/base64/<json, base64url-encoded>`), so the example
/// can show what the app does with its server's success and error envelopes.
struct ServerAnswer<Payload: Decodable & Sendable>: AppRequest {
    typealias Response = Payload
    @PathSegment("answer") var answer = ""

    init(_ json: String, as type: Payload.Type) {
        answer = Data(json.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
    }

    var base: URL { server }
    var path: String { "base64/{answer}" }
}

/// A success envelope's payload.
struct UserAnswer: Decodable, Sendable {
    struct User: Decodable, Sendable {
        var id: Int
        var name: String
    }

    var user: User
}

// MARK: - Using it

/// The httpbin server, from `APIKIT_HTTPBIN_URL`.
let server: URL = {
    guard let url = ProcessInfo.processInfo.environment["APIKIT_HTTPBIN_URL"].flatMap(URL.init(string:)) else {
        print("Set APIKIT_HTTPBIN_URL to an httpbin server, or run: bash scripts/run-examples.sh AppAPIExample")
        exit(2)
    }
    return url
}()

/// Prints what was shown, or why it was not and exits 1.
func check(_ condition: Bool, _ what: String) {
    guard condition else {
        print("FAIL: \(what)")
        exit(1)
    }
    print("ok: \(what)")
}

/// The error `request` failed with, or `nil` when it succeeded.
func failure<R: AppRequest>(of request: R) async -> RequestError? {
    do {
        _ = try await request.send()
        return nil
    } catch {
        return error
    }
}

// No token yet: requests go out without one.
let anonymous = try await Logout().send()
check(anonymous.headers["X-Auth-Token"] == nil, "without a stored token no X-Auth-Token is sent")

// After login the store holds a token, and every request carries it.
await AppAPI.tokens.set("t-42")
let edit = try await EditPassword(newPassword: "correct horse").send()
check(edit.headers["X-Auth-Token"] == "t-42", "EditPassword carried the stored token")
check(edit.form == ["newPassword": "correct horse"], "EditPassword's form field arrived")
check(URL(string: edit.url)?.path == "/anything/api/changePassword", "EditPassword went to changePassword")
let logout = try await Logout().send()
check(logout.headers["X-Auth-Token"] == "t-42", "Logout carried the stored token")

// A success envelope passes the check and is decoded.
let user = try await ServerAnswer(#"{"result": "success", "user": {"id": 7, "name": "Anna"}}"#, as: UserAnswer.self)
    .send()
check(user.user.name == "Anna" && user.user.id == 7, "a success envelope is decoded")

// An error envelope is the app's error, with the server's code and message — although the status was 200.
let expired = await failure(
    of: ServerAnswer(
        #"{"result": "error", "errors": [{"code": 403, "message": "Token expired"}]}"#,
        as: UserAnswer.self
    )
)
check(
    expired?.appError == AppError(code: 403, message: "Token expired") && expired?.statusCode == 200,
    "an error envelope became AppError(403, \"Token expired\") (status 200)"
)
check(expired?.stage == .responseValidation, "it failed at response validation, before parsing")

let vague = await failure(of: ServerAnswer(#"{"result": "error"}"#, as: UserAnswer.self))
check(vague?.appError == .unknown, "an error envelope without details became AppError.unknown (100)")

let garbled = await failure(of: ServerAnswer("Service Unavailable", as: UserAnswer.self))
check(garbled?.appError == .emptyAnswer, "an answer that is not JSON became AppError.emptyAnswer (101)")

print("AppAPI example: all checks passed")
