import Foundation
import Testing

@testable import APIKit

extension Caching {
    @Suite("Cache-Control: the directives of RFC 9111 §5.2, read tolerantly")
    struct CacheControlTests {
        @Test("Directives are read whatever their case, spacing and argument form")
        func tolerantReading() {
            let directives = CacheControl(#"  MAX-AGE = "60" ,No-Cache,must-revalidate,private="Set-Cookie", Public"#)
            #expect(directives.maxAge == 60)
            #expect(directives.noCache)
            #expect(directives.mustRevalidate)
            #expect(directives.isPrivate)
            #expect(directives.isPublic)
            #expect(!directives.noStore)
        }

        @Test("stale-if-error and stale-while-revalidate (RFC 5861) are read; an unreadable one is ignored")
        func rfc5861() {
            let directives = CacheControl(#"max-age=1, Stale-If-Error="30", stale-while-revalidate=5"#)
            #expect(directives.staleIfError == 30)
            #expect(directives.staleWhileRevalidate == 5)
            #expect(CacheControl("stale-if-error=-1, stale-while-revalidate").staleIfError == nil)
            #expect(CacheControl("stale-while-revalidate").staleWhileRevalidate == nil)
        }

        @Test("A comma inside a quoted argument does not split the directives")
        func quotedCommas() {
            let directives = CacheControl(#"no-cache="Set-Cookie, X-Token", max-age=5, x-ext="a\"b,c""#)
            #expect(directives.noCache)
            #expect(directives.maxAge == 5)
        }

        @Test("Of a directive given twice, the first counts (§4.2.1)")
        func firstWins() {
            #expect(CacheControl("max-age=10, max-age=20").maxAge == 10)
            #expect(CacheControl("max-age=10,max-age=0").maxAge == 10)
            #expect(CacheControl("min-fresh=3, min-fresh=1").minFresh == 3)
        }

        @Test(
            "A max-age that is not delta-seconds is 0: the response is stale (§1.2.2, §4.2.1)",
            arguments: [
                "max-age=abc", "max-age=-1", "max-age=1.5", "max-age=", "max-age", "max-age=\"\"", "max-age=1 0",
            ])
        func invalidMaxAge(value: String) {
            #expect(CacheControl(value).maxAge == 0)
        }

        @Test("delta-seconds too large to represent are 2^31 (§1.2.2)")
        func overflow() {
            #expect(CacheControl("max-age=99999999999999999999999999").maxAge == 2_147_483_648)
            #expect(CacheControl("max-age=2147483647").maxAge == 2_147_483_647)
        }

        @Test("delta-seconds are 64-bit on every platform: 2^31 does not fit a 32-bit Int")
        func sixtyFourBits() {
            let limit: Int64 = CacheControl.deltaSecondsLimit
            let directives = CacheControl(
                "max-age=9999999999, max-stale=9999999999, min-fresh=9999999999, stale-if-error=9999999999, "
                    + "stale-while-revalidate=9999999999")
            let values: [Int64?] = [
                directives.maxAge, directives.maxStale ?? nil, directives.minFresh, directives.staleIfError,
                directives.staleWhileRevalidate,
            ]
            #expect(values == Array(repeating: limit, count: 5))
            let read: Int64? = CacheControl.deltaSeconds("2147483648")
            #expect(read == limit)
        }

        @Test("max-stale without an argument accepts any staleness; an unreadable one accepts none")
        func maxStale() {
            #expect(CacheControl("max-stale").maxStale == .some(nil))
            #expect(CacheControl("max-stale=30").maxStale == .some(30))
            #expect(CacheControl("max-stale=soon").maxStale == nil)
            #expect(CacheControl("min-fresh=x").minFresh == nil)
        }

        @Test("Request directives, and unknown ones ignored")
        func requestDirectives() {
            let directives = CacheControl("only-if-cached, no-store, min-fresh=5, foo=bar, baz")
            #expect(directives.onlyIfCached)
            #expect(directives.noStore)
            #expect(directives.minFresh == 5)
            #expect(CacheControl(nil) == CacheControl(""))
            #expect(CacheControl(",,  ,") == CacheControl(nil))
        }

        @Test("Pragma: no-cache counts as no-cache only without Cache-Control (§5.4)")
        func pragma() {
            var request = URLRequest(url: URL(string: "https://example.test/")!)
            request.setValue("No-Cache", forHTTPHeaderField: "Pragma")
            #expect(CacheControl(request: request).noCache)
            request.setValue("max-age=10", forHTTPHeaderField: "Cache-Control")
            #expect(!CacheControl(request: request).noCache)
            #expect(CacheControl(request: request).maxAge == 10)
        }
    }
}
