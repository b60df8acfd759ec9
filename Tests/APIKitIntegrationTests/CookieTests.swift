import APIKit
import Testing

/// httpbin's `/cookies/set?apikit=VALUE`: sets the cookie and redirects to `/cookies`, which
/// answers with the cookies the request carried.
struct SetCookieRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = CookieEcho

    @Query("apikit") var value = ""

    var base = HTTPBin.baseURL
    var path = "cookies/set"
    var method: HTTPMethod = .get
    var configuration: Self { self }
}

/// httpbin's `/cookies`: the cookies the request carried.
struct CookiesRequest: JSONDecodableRequest, RequestConfiguration {
    typealias Response = CookieEcho

    var base = HTTPBin.baseURL
    var path = "cookies"
    var method: HTTPMethod = .get
    var configuration: Self { self }
}

/// What `/cookies` answers.
struct CookieEcho: Decodable, Equatable {
    var cookies: [String: String]
}

/// The cookies a ``URLSessionTransport`` keeps are its configuration's: with a storage, a cookie
/// a response sets is sent on later requests; without one, none is kept (and corelibs is spared
/// its cookie parse: `URLSessionConfiguration+Cookies.swift`).
@Suite(
    "URLSessionTransport keeps the cookies its configuration can store",
    .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason),
    .urlSessionOnly("the cookie storage is a URLSessionConfiguration's")
)
struct URLSessionTransportCookieTests {
    @Test("with a cookie storage, a cookie a response sets is sent on later requests")
    func stored() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        let session = Session(transport: URLSessionTransport(configuration: configuration))

        // Where the redirect leads the cookie is not sent on Linux: corelibs adds a task's
        // cookies once, before its first hop.
        _ = try await SetCookieRequest(value: "kept").response(using: session)
        let later = try await CookiesRequest().response(using: session)

        #expect(later.cookies == ["apikit": "kept"])
    }

    @Test("without a cookie storage no cookie is kept, requests succeed, the caller's configuration is unchanged")
    func noStorage() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpCookieAcceptPolicy = .always
        let session = Session(transport: URLSessionTransport(configuration: configuration))

        _ = try await SetCookieRequest(value: "dropped").response(using: session)
        let later = try await CookiesRequest().response(using: session)

        #expect(later.cookies == [:])
        #expect(configuration.httpCookieAcceptPolicy == .always)
    }
}
