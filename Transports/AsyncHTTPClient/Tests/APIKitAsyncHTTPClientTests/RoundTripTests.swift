import APIKit
import APIKitAsyncHTTPClient
import Foundation
import Testing

@Suite(
    "Round trips through Session(transport: AsyncHTTPClientTransport())",
    .enabled(if: Servers.allSet, Servers.skipReason))
struct RoundTripTests {
    let session = Session(transport: AsyncHTTPClientTransport(client: .shared))

    @Test("a GET with a query and a header decodes httpbin's echo")
    func getJSON() async throws {
        let echo = try await session.response(for: GetEcho(base: Servers.httpbinURL))
        #expect(echo.method == "GET")
        #expect(echo.args?["q"] == "a b&c")
        #expect(echo.header("X-Trace") == "ahc")
    }

    @Test("a POST with a JSON body is echoed back whole, with its Content-Length")
    func postJSON() async throws {
        let item = Item(id: 42, name: "東京 🍣")
        let echo = try await session.response(for: PostItem(base: Servers.httpbinURL, item: item))
        #expect(echo.method == "POST")
        #expect(echo.json == item)
        #expect(echo.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(echo.header("Content-Length") != nil)
        #expect(echo.header("Transfer-Encoding") == nil)
    }

    @Test("a 404 is the same validation error as through URLSession")
    func statusValidation() async throws {
        do {
            _ = try await session.response(for: GetEcho(base: Servers.httpbinURL, path: "status/404"))
            Issue.record("a 404 passed validation")
        } catch {
            guard case .unacceptableStatusCode(let code, _, _, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(code == 404)
        }
    }

    @Test("the response carries the status, headers and the URL after redirects")
    func responseFields() async throws {
        var request = URLRequest(url: Servers.httpbinURL.appendingPathComponent("redirect-to"))
        request.url = URL(string: Servers.httpbinURL.absoluteString + "/redirect-to?url=/get&status_code=302")
        let response = try await send(request, through: AsyncHTTPClientTransport()).get()
        let http = try #require(response.urlResponse as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.url?.path == "/get")
        #expect(http.value(forHTTPHeaderField: "content-type") == "application/json")
    }
}
