import Foundation
import Testing

@testable import APIKit

// The "Requests of one API share a protocol" example of the DocC article "Sessions and
// interceptors", compiled and run against a stub written as "Testing code that uses APIKit"
// shows. Change them together with the articles.

enum Secrets {
    static let giphyKey = "test-key"
}

struct GIF: Decodable, Sendable, Equatable {
    var id: String
}

protocol GiphyRequest: JSONDecodableRequest, RequestConfiguration {}

extension GiphyRequest {
    var base: URL { URL(string: "https://api.giphy.com/v1")! }
    var method: HTTPMethod { .get }

    func intercept(urlRequest: URLRequest) throws -> URLRequest {
        var request = urlRequest
        request.setValue(Secrets.giphyKey, forHTTPHeaderField: "api_key")
        return request
    }
}

struct SearchGIFs: GiphyRequest {
    @Query("q") var query: String? = nil
    @Query("limit") var limit: Int? = 25

    struct Response: Decodable, Sendable { var data: [GIF] }
    var path: String { "gifs/search" }
}

@Suite("Article: a protocol shared by the requests of one API, tested with a stub")
struct SharedAPIPatternTests {
    @Test("the protocol's base and intercept(urlRequest:) apply to every request of the API")
    func sharedBaseAndKey() async throws {
        let sent = Locked<[URLRequest]>([])
        let stub = StubTransport { request in
            sent.withLock { $0.append(request) }
            switch request.url?.path {
            case "/v1/gifs/search": return .success(body: #"{"data": [{"id": "a"}]}"#)
            case "/v1/offline": return .failure(URLError(.notConnectedToInternet))
            default: return .success(status: 404)
            }
        }
        let session = Session(transport: stub)

        let gifs = try await SearchGIFs(query: "cats").response(using: session)

        #expect(gifs.data == [GIF(id: "a")])
        let request = try #require(sent.withLock { $0.first })
        #expect(request.url?.absoluteString == "https://api.giphy.com/v1/gifs/search?q=cats&limit=25")
        #expect(request.headerValue("api_key") == "test-key")
        #expect(request.headerValue("Accept") == "application/json")
    }
}
