import APIKit
import Testing

/// Shared parameters, declared once and reused by several requests.
struct Paging: RequestConfiguration, Sendable {
    @Query("page") var page = 1
    @Query("per_page") var perPage = 20
}

struct Credentials: RequestConfiguration, Sendable {
    @Header("Authorization") var authorization: String? = nil
}

/// The JSON body `/anything` echoes back for ``NestedRequest``.
struct NestedEcho: Decodable, Sendable {
    var title: String
}

/// `POST /anything/posts` whose query, header and body come from three configurations.
struct NestedRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo<NestedEcho>

    var paging = Paging()
    var credentials = Credentials()
    @JSON("title") var title = "nested"

    var base = HTTPBin.baseURL
    var path = "anything/posts"
    var method: HTTPMethod = .post
    var configuration: Self { self }
}

/// A class configuration whose superclass declares a header.
class BaseConfiguration: RequestConfiguration, @unchecked Sendable {
    // Immutable after init; `@unchecked` only because classes cannot prove it.
    @Header("X-Client") var client: String? = "APIKitTests"
}

final class SearchConfiguration: BaseConfiguration, @unchecked Sendable {
    @Query("q") var query: String? = "swift"
}

struct ClassConfiguredRequest: JSONDecodableRequest {
    typealias Response = Echo<NoJSONBody>

    var base = HTTPBin.baseURL
    var path = "anything/search"
    var method: HTTPMethod = .get
    var configuration: SearchConfiguration { SearchConfiguration() }
}

@Suite("Composable configurations over HTTP", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct NestedConfigurationRoundTripTests {
    @Test("nested configurations contribute their query items and headers beside the request's own body")
    func nested() async throws {
        var request = NestedRequest()
        request.paging.page = 3
        request.credentials.authorization = "Bearer t-1"
        let echo = try await perform(request).get()
        #expect(echo.arg("page") == .one("3"))
        #expect(echo.arg("per_page") == .one("20"))
        #expect(echo.header("Authorization") == "Bearer t-1")
        #expect(echo.json?.title == "nested")
    }

    @Test("a class configuration sends its superclass's parameters too")
    func superclass() async throws {
        let echo = try await perform(ClassConfiguredRequest()).get()
        #expect(echo.arg("q") == .one("swift"))
        #expect(echo.header("X-Client") == "APIKitTests")
    }
}
