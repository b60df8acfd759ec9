import Foundation
import Testing

@testable import APIKit

@Suite("Joining base and path")
struct URLComposerTests {
    struct Empty: RequestConfiguration, Sendable {}

    @Test(
        "one slash joins base and path, whatever slashes either brings",
        arguments: [
            ("https://h/api/v2", "users", "https://h/api/v2/users"),
            ("https://h/api/v2/", "users", "https://h/api/v2/users"),
            ("https://h/api/v2/", "/users", "https://h/api/v2/users"),
            ("https://h/api/v2", "/users", "https://h/api/v2/users"),
            ("https://h", "users", "https://h/users"),
            ("https://h/", "/users/", "https://h/users/"),
            ("https://h:8080/a", "b/c", "https://h:8080/a/b/c"),
        ]
    )
    func joins(base: String, path: String, expected: String) throws {
        #expect(try urlRequest(Empty(), base: base, path: path).url?.absoluteString == expected)
    }

    @Test("an empty path keeps the base as it is", arguments: ["https://h/api/v2", "https://h/api/v2/", "https://h"])
    func emptyPath(base: String) throws {
        #expect(try urlRequest(Empty(), base: base, path: "").url?.absoluteString == base)
    }

    struct Page: RequestConfiguration, Sendable {
        @Query("page") var page = 2
    }

    @Test("a query already in the base is kept and declared items follow it")
    func baseQueryKept() throws {
        let request = try urlRequest(Page(), base: "https://h/api?key=abc", path: "users")
        #expect(request.url?.absoluteString == "https://h/api/users?key=abc&page=2")
        let noItems = try urlRequest(Empty(), base: "https://h/api?key=abc", path: "users")
        #expect(noItems.url?.absoluteString == "https://h/api/users?key=abc")
        // a query that ends with its separator gets no second one, and keeps it without items
        let separated = try urlRequest(Page(), base: "https://h/api?key=abc&", path: "users")
        #expect(separated.url?.absoluteString == "https://h/api/users?key=abc&page=2")
        let separatedNoItems = try urlRequest(Empty(), base: "https://h/api?key=abc&", path: "users")
        #expect(separatedNoItems.url?.absoluteString == "https://h/api/users?key=abc&")
    }

    @Test("characters not allowed in a path are escaped; existing escapes are kept")
    func pathEscaping() throws {
        let request = try urlRequest(Empty(), base: "https://h", path: "files/a b?c#d/%2F/東/50%")
        #expect(request.url?.absoluteString == "https://h/files/a%20b%3Fc%23d/%2F/%E6%9D%B1/50%25")
    }

    @Test("a base without a scheme or host is a build error naming base and path")
    func invalidBase() {
        for base in ["api.example.com/v1", "file:///tmp/x", "mailto:someone@example.com"] {
            let request = TestRequest(base: URL(string: base)!, path: "p", configuration: Empty())
            #expect {
                try request.makeURLRequest()
            } throws: { error in
                guard case .buildFailed(.invalidURL(let b, let p), _) = error as? RequestError else { return false }
                return b == base && p == "p"
            }
        }
    }
}

@Suite("Checking scheme and host")
struct SchemeAndHostTests {
    @Test(
        "a URL needs a scheme, :// and a non-empty host",
        arguments: [
            ("https://h", true), ("http://h:8080/p", true), ("https://user:pw@h/p", true),
            ("http://[::1]:8080/", true), ("http://127.0.0.1", true), ("a+b-c.d://h", true),
            ("https://", false), ("https://:80/", false), ("https://user@/p", false), ("file:///tmp", false),
            ("mailto:x@y", false), ("h/p", false), ("1http://h", false), ("", false), ("https:/h", false),
        ]
    )
    func check(url: String, valid: Bool) {
        #expect(URLComposer.hasSchemeAndHost(Array(url.utf8)) == valid)
    }
}

@Suite("Appending query items to a built URL")
struct AppendingQueryTests {
    /// `url` with `item` appended, and the names the composer reported as already there.
    func append(_ item: String, to url: String) throws -> (url: String?, existing: Set<String>) {
        var existing: Set<String> = []
        let result = URLComposer.url(try #require(URL(string: url))) { (names, text: inout [UInt8]) in
            existing = names
            text.append(contentsOf: item.utf8)
        }
        return (result?.absoluteString, existing)
    }

    @Test(
        "the separator is ? without a query, & after one, none after a trailing ? or &; a fragment stays last",
        arguments: [
            ("https://h/p", "https://h/p?k=v"),
            ("https://h/p?a=1", "https://h/p?a=1&k=v"),
            ("https://h/p?", "https://h/p?k=v"),
            ("https://h/p?a=1&", "https://h/p?a=1&k=v"),
            ("https://h/p#frag", "https://h/p?k=v#frag"),
            ("https://h/p?a=1#frag?x=y", "https://h/p?a=1&k=v#frag?x=y"),
        ]
    )
    func separator(url: String, expected: String) throws {
        #expect(try append("k=v", to: url).url == expected)
    }

    @Test("the existing names are percent-decoded; bare keys and empty values count; the fragment does not")
    func existingNames() throws {
        let (_, existing) = try append("k=v", to: "https://h/p?a%5Bb%5D=1&flag&empty=&%20x=2#c=3")
        #expect(existing == ["a[b]", "flag", "empty", " x"])
    }

    @Test("nothing appended: the very same URL")
    func nothingAppended() throws {
        let url = try #require(URL(string: "https://h/p?a=1#f"))
        #expect(URLComposer.url(url) { (_, _: inout [UInt8]) in } == url)
    }
}
