// Example: a Giphy-style client, written the way the Endpoints seed (002) works.
//
// Endpoints keeps what every call of one Web-API shares in a *client* — the API key appended to every
// request, error details read from the body, a debug mode that logs the traffic — and gives each
// operation a dedicated *call* type, namespaced under the client and started with a convenience method:
// `GiphyClient.GetRandomImage(tag: "cat").start { result in ... }`.
//
// In APIKit the client is a `Session`: its `defaultQueryItems` append the key to every request, an
// `ErrorBodyDecoder` reads Giphy's `meta` error payload, a `RequestLogger` is the debug mode. The calls
// are requests sharing a protocol (`GiphyCall`) that supplies the base, the method and `start`.
//
// A local httpbin stands in for api.giphy.com (`bash scripts/run-examples.sh GiphyExample` starts one):
// its /anything echoes what it received, so the example checks that the shared key, the parameters and
// the path really arrived, and exits 1 if anything did not happen as shown.
import APIKit

// MARK: - The client: what every Giphy call shares

enum Giphy {
    /// Giphy's public beta key, as in the Endpoints README.
    static let apiKey = "dc6zaTOxFJmzC"

    /// `https://api.giphy.com/v1` in production; here httpbin's echo under the same path.
    static let base: URL = server.appendingPathComponent("anything/v1")

    /// The session every call goes through: the key, the error payload and the debug log.
    static let session = Session(
        defaultQueryItems: ["api_key": apiKey],  // Endpoints' `request.append(query: ["api_key": apiKey])`
        errorBodyDecoder: .json(ErrorBody.self),
        logger: .print  // Endpoints' `session.debug = true`; keys and query values are printed as ***
    )

    /// Giphy's error payload: `{"meta": {"status": 403, "msg": "Forbidden", "error_code": "..."}}`.
    struct ErrorBody: Decodable, Sendable {
        struct Meta: Decodable, Sendable {
            var status: Int
            var msg: String
            var errorCode: String?

            enum CodingKeys: String, CodingKey {
                case status, msg
                case errorCode = "error_code"
            }
        }

        var meta: Meta
    }

    /// What httpbin answers: the request as it arrived. Against api.giphy.com each call would have a
    /// dedicated response type instead (`RandomImage { data: { image_url } }`, ...).
    struct Echo: Decodable, Sendable {
        var url: String
        var args: [String: String]
    }
}

// MARK: - The calls

/// What makes a request a Giphy call: its base and method, and `start`, which sends it through
/// the Giphy session (Endpoints' "Convenience" section).
protocol GiphyCall: JSONDecodableRequest, RequestConfiguration where Response: Sendable {}

extension GiphyCall {
    var base: URL { Giphy.base }
    var method: HTTPMethod { .get }
    var configuration: Self { self }

    @discardableResult
    func start(completion: @escaping @Sendable (Result<Response, RequestError>) -> Void) -> RequestHandle {
        self.perform(using: Giphy.session, completion: completion)
    }
}

extension Giphy {
    enum Rating: String, Encodable, Sendable {
        case g, pg, r
    }

    /// `GET /gifs/random?tag=...`
    struct GetRandomImage: GiphyCall {
        typealias Response = Echo
        @Query("tag") var tag: String? = nil
        @Query("rating") var rating: Rating? = nil
        var path: String { "gifs/random" }
    }

    /// `GET /gifs/search?q=...&limit=...&offset=...`
    struct Search: GiphyCall {
        typealias Response = Echo
        @Query("q") var query = ""
        @Query("limit") var limit = 25
        @Query("offset") var offset = 0
        var path: String { "gifs/search" }
    }

    /// `GET /gifs/{gif_id}`
    struct GetGIF: GiphyCall {
        typealias Response = Echo
        @PathSegment("gif_id") var id = ""
        var path: String { "gifs/{gif_id}" }
    }
}

// MARK: - Using it

/// The httpbin server, from `APIKIT_HTTPBIN_URL`.
let server: URL = {
    guard let url = ProcessInfo.processInfo.environment["APIKIT_HTTPBIN_URL"].flatMap(URL.init(string:)) else {
        print("Set APIKIT_HTTPBIN_URL to an httpbin server, or run: bash scripts/run-examples.sh GiphyExample")
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

/// `start` with its completion, awaited.
func started<Call: GiphyCall>(_ call: Call) async -> Result<Call.Response, RequestError> {
    await withCheckedContinuation { continuation in
        call.start { continuation.resume(returning: $0) }
    }
}

// Call types found under the client's name, started with a completion, as in Endpoints.
let random = try await started(Giphy.GetRandomImage(tag: "cat", rating: .g)).get()
check(random.args["api_key"] == Giphy.apiKey, "the shared API key arrived with GetRandomImage")
check(random.args["tag"] == "cat" && random.args["rating"] == "g", "GetRandomImage's tag and rating arrived")
check(URL(string: random.url)?.path == "/anything/v1/gifs/random", "GetRandomImage went to /gifs/random")

let search = try await started(Giphy.Search(query: "cats & dogs", limit: 5)).get()
check(search.args["api_key"] == Giphy.apiKey, "the shared API key arrived with Search")
check(
    search.args["q"] == "cats & dogs" && search.args["limit"] == "5" && search.args["offset"] == "0",
    "Search's q (with a space and an &), limit and offset arrived intact"
)

// The same calls work with async/await, on the same session.
let gif = try await Giphy.GetGIF(id: "xT4uQulxzV39haRFjG").response(using: Giphy.session)
check(gif.args == ["api_key": Giphy.apiKey], "GetGIF carried the key and nothing else in its query")
check(URL(string: gif.url)?.path == "/anything/v1/gifs/xT4uQulxzV39haRFjG", "GetGIF's id is a path segment")

// Errors: a status outside 200..<300 is a RequestError that keeps the status and the body.
struct NotFound: GiphyCall {
    typealias Response = Giphy.Echo
    var base: URL { server }
    var path: String { "status/404" }
}
switch await started(NotFound()) {
case .failure(.unacceptableStatusCode(let status, _, _, _)) where status == 404:
    print("ok: a 404 from the server is .unacceptableStatusCode(404, ...)")
case let other:
    check(false, "a 404 should fail with .unacceptableStatusCode, got \(other)")
}

// What Endpoints' client digs out of an error body (`meta.error_code`), the session's ErrorBodyDecoder
// decodes for every rejected call. httpbin cannot answer 403 with a body, so this one call uses the
// same session with a stub transport answering as Giphy does for a bad key.
var stubbed = Giphy.session
stubbed.transport = StubTransport { _ in
    .success(status: 403, body: #"{"meta": {"status": 403, "msg": "Forbidden", "error_code": "invalid_api_key"}}"#)
}
do {
    _ = try await Giphy.GetRandomImage(tag: "cat").response(using: stubbed)
    check(false, "a 403 should fail")
} catch {
    let meta = (error.errorBody as? Giphy.ErrorBody)?.meta
    check(error.statusCode == 403 && meta?.errorCode == "invalid_api_key", "a 403's error_code is read from its body")
}

print("Giphy example: all checks passed")
