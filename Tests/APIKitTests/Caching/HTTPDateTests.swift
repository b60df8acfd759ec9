import Foundation
import Testing

@testable import APIKit

extension Caching {
    @Suite("HTTP dates: the three forms of RFC 9110 §5.6.7, read by hand")
    struct HTTPDateTests {
        /// The instant of RFC 9110's examples, Sun, 06 Nov 1994 08:49:37 GMT.
        private static let example = Date(timeIntervalSince1970: 784_111_777)

        @Test(
            "The RFC's example reads the same in all three forms",
            arguments: [
                "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
                "Sun Nov 06 08:49:37 1994", "sun, 06 nov 1994 08:49:37 gmt", "  Sun, 06 Nov 1994 08:49:37 GMT ",
            ])
        func readsTheThreeForms(text: String) {
            #expect(HTTPDate.parse(text) == Self.example)
        }

        @Test("Days, months and leap years are counted exactly")
        func calendar() {
            #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
            #expect(HTTPDate.parse("Tue, 29 Feb 2000 23:59:59 GMT") == Date(timeIntervalSince1970: 951_868_799))
            #expect(HTTPDate.parse("Sun, 31 Dec 2023 23:59:59 GMT") == Date(timeIntervalSince1970: 1_704_067_199))
            #expect(HTTPDate.parse("Wed, 01 Mar 2028 12:00:00 GMT") == Date(timeIntervalSince1970: 1_835_524_800))
            #expect(HTTPDate.parse("Mon, 29 Feb 1900 00:00:00 GMT") == nil, "1900 is not a leap year")
            #expect(HTTPDate.parse("Sun, 31 Apr 2024 00:00:00 GMT") == nil)
        }

        @Test("Dates past 2038 and 2106 are read exactly: seconds counted in 64 bits on every platform")
        func farDates() {
            #expect(HTTPDate.parse("Tue, 19 Jan 2038 03:14:08 GMT") == Date(timeIntervalSince1970: 2_147_483_648))
            #expect(HTTPDate.parse("Fri, 01 Jan 2100 00:00:00 GMT") == Date(timeIntervalSince1970: 4_102_444_800))
            #expect(HTTPDate.parse("Sun, 07 Feb 2106 06:28:16 GMT") == Date(timeIntervalSince1970: 4_294_967_296))
            #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT") == Date(timeIntervalSince1970: 253_402_300_799))
        }

        @Test(
            "Anything else is not a date",
            arguments: [
                "", "0", "-1", "tomorrow", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 PST",
                "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
                "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 00 Nov 1994 08:49:37 GMT",
                "Sun, 06 Nov 1994 08:49:37 GMT extra", "Xyz, 06 Nov 1994 08:49:37 GMT",
                "Sun, 066 Nov 1994 08:49:37 GMT",
                "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov  6 08:49:37 94", "Sun Nov  6 08:49 1994", "é, 06 Nov",
            ])
        func rejects(text: String) {
            #expect(HTTPDate.parse(text) == nil)
        }

        @Test("A two-digit rfc850 year more than 50 years ahead is the most recent past year with those digits")
        func twoDigitYears() throws {
            let now = try #require(HTTPDate.parse("Sat, 01 Jan 2028 00:00:00 GMT"))
            let soon = HTTPDate.parse("Friday, 01-Jan-77 00:00:00 GMT", now: now)
            #expect(soon == HTTPDate.parse("Fri, 01 Jan 2077 00:00:00 GMT"), "49 years ahead: this century")
            let past = HTTPDate.parse("Sunday, 01-Jan-79 00:00:00 GMT", now: now)
            #expect(past == HTTPDate.parse("Mon, 01 Jan 1979 00:00:00 GMT"), "51 years ahead: the last century")
        }
    }
}
