import Testing

@testable import APIKit

@Suite("Percent-encoding")
struct PercentEncodingTests {
    @Test("only the RFC 3986 unreserved set stays as it is")
    func unreservedKept() {
        let unreserved = "ABCXYZabcxyz0189-._~"
        #expect(PercentEncoding.encode(unreserved, style: .query) == unreserved)
        #expect(PercentEncoding.encode(unreserved, style: .form) == unreserved)
    }

    @Test("reserved characters are escaped exactly once")
    func reservedEscaped() {
        #expect(PercentEncoding.encode("a+b c&d=e#f%g/h?i", style: .query) == "a%2Bb%20c%26d%3De%23f%25g%2Fh%3Fi")
        #expect(PercentEncoding.encode("!*'();:@$,[]", style: .query) == "%21%2A%27%28%29%3B%3A%40%24%2C%5B%5D")
        #expect(PercentEncoding.encode("%25", style: .query) == "%2525")
    }

    @Test("form style writes a space as + and a + as %2B")
    func formSpace() {
        #expect(PercentEncoding.encode("a b+c", style: .form) == "a+b%2Bc")
    }

    @Test("non-ASCII text is escaped as UTF-8 bytes")
    func utf8() {
        #expect(PercentEncoding.encode("東京", style: .query) == "%E6%9D%B1%E4%BA%AC")
        #expect(PercentEncoding.encode("👍", style: .query) == "%F0%9F%91%8D")
        #expect(PercentEncoding.encode("e\u{301}", style: .query) == "e%CC%81")
        #expect(PercentEncoding.encode("", style: .query) == "")
    }
}
