import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Testing

@testable import APIKitAsyncHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `HTTPURLResponse.make` builds one Foundation response per head and hands it out again while
/// heads come back the same: byte for byte the same fields, status, version and URL.
@Suite("HTTPURLResponse.make: one response per distinct head")
struct ResponseHeadCacheTests {
    static let url = URL(string: "http://127.0.0.1:8080/user.json")!

    static func head(
        status: HTTPResponseStatus = .ok, _ headers: [(String, String)] = [("Content-Type", "application/json")]
    ) -> HTTPClientResponse {
        HTTPClientResponse(version: .http1_1, status: status, headers: HTTPHeaders(headers))
    }

    @Test("a header that comes twice in different cases is one field with both values, none lost")
    func repeatedInAnotherCase() throws {
        let response = try HTTPURLResponse.make(
            Self.head([("Set-Cookie", "a=1"), ("Content-Type", "text/plain"), ("set-cookie", "b=2")]),
            requestURL: Self.url, cache: ResponseHeadCache())
        #expect(response.value(forHTTPHeaderField: "Set-Cookie") == "a=1, b=2")
        #expect(response.allHeaderFields.count == 2)
    }

    @Test("the same head twice: the same response, its fields readable")
    func reused() throws {
        let cache = ResponseHeadCache()
        let headers = [("Date", "Fri, 27 Nov 2026 01:14:00 GMT"), ("Content-Type", "application/json")]
        let first = try HTTPURLResponse.make(Self.head(headers), requestURL: Self.url, cache: cache)
        let second = try HTTPURLResponse.make(Self.head(headers), requestURL: Self.url, cache: cache)
        #expect(first === second)
        #expect(second.value(forHTTPHeaderField: "content-type") == "application/json")
        #expect(second.statusCode == 200 && second.url == Self.url)
    }

    @Test("any difference — a field's value, its name, the order, the status, the URL — makes a new one")
    func differences() throws {
        let cache = ResponseHeadCache()
        let base = [("Date", "one"), ("ETag", "\"a\"")]
        let first = try HTTPURLResponse.make(Self.head(base), requestURL: Self.url, cache: cache)
        let changes: [(HTTPClientResponse, URL, (HTTPURLResponse) -> Bool)] = [
            (
                Self.head([("Date", "two"), ("ETag", "\"a\"")]), Self.url,
                { $0.value(forHTTPHeaderField: "Date") == "two" }
            ),
            (
                Self.head([("Date", "one"), ("Etag", "\"a\"")]), Self.url,
                { $0.value(forHTTPHeaderField: "ETag") == "\"a\"" }
            ),
            (
                Self.head([("ETag", "\"a\""), ("Date", "one")]), Self.url,
                { $0.value(forHTTPHeaderField: "Date") == "one" }
            ),
            (Self.head([("Date", "one")]), Self.url, { $0.value(forHTTPHeaderField: "ETag") == nil }),
            (Self.head(status: .notFound, base), Self.url, { $0.statusCode == 404 }),
            (
                Self.head(base), URL(string: "http://127.0.0.1:8080/other.json")!,
                { $0.url?.lastPathComponent == "other.json" }
            ),
        ]
        var previous = first
        for (index, (head, url, holds)) in changes.enumerated() {
            let made = try HTTPURLResponse.make(head, requestURL: url, cache: cache)
            #expect(made !== previous, "change \(index) reused the last response")
            #expect(holds(made), "change \(index): \(made)")
            previous = made
        }
    }

    @Test("a field that came twice is joined with \", \", in the reused response too")
    func joined() throws {
        let cache = ResponseHeadCache()
        let headers = [("Vary", "Accept"), ("Vary", "Origin")]
        for _ in 0..<2 {
            let made = try HTTPURLResponse.make(Self.head(headers), requestURL: Self.url, cache: cache)
            #expect(made.value(forHTTPHeaderField: "Vary") == "Accept, Origin")
        }
    }
}
