import APIKitTestSupport
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

        @Test("The writer writes the IMF-fixdate of the RFC's example, the fraction of its second dropped")
        func writesTheExample() {
            #expect(HTTPDate.format(Self.example) == "Sun, 06 Nov 1994 08:49:37 GMT")
            #expect(HTTPDate.format(Self.example.addingTimeInterval(0.999)) == "Sun, 06 Nov 1994 08:49:37 GMT")
            #expect(HTTPDate.format(Self.example.addingTimeInterval(-0.001)) == "Sun, 06 Nov 1994 08:49:36 GMT")
        }

        @Test(
            "The writer's edges: 1970, the days around it, leap days, 2038, 2100, the first and last second of four-digit years",
            arguments: [
                (0, "Thu, 01 Jan 1970 00:00:00 GMT"), (-0.5, "Wed, 31 Dec 1969 23:59:59 GMT"),
                (-1, "Wed, 31 Dec 1969 23:59:59 GMT"), (-86_400, "Wed, 31 Dec 1969 00:00:00 GMT"),
                (-86_400.5, "Tue, 30 Dec 1969 23:59:59 GMT"), (86_399.9, "Thu, 01 Jan 1970 23:59:59 GMT"),
                (951_868_799, "Tue, 29 Feb 2000 23:59:59 GMT"), (951_868_800, "Wed, 01 Mar 2000 00:00:00 GMT"),
                (1_709_164_800, "Thu, 29 Feb 2024 00:00:00 GMT"), (2_147_483_648, "Tue, 19 Jan 2038 03:14:08 GMT"),
                (4_107_542_400, "Mon, 01 Mar 2100 00:00:00 GMT"), (4_107_542_399, "Sun, 28 Feb 2100 23:59:59 GMT"),
                (-2_203_891_200, "Thu, 01 Mar 1900 00:00:00 GMT"), (-2_203_891_201, "Wed, 28 Feb 1900 23:59:59 GMT"),
                (253_402_300_799, "Fri, 31 Dec 9999 23:59:59 GMT"),
                (253_402_300_799.9, "Fri, 31 Dec 9999 23:59:59 GMT"),
                (-62_167_219_200, "Sat, 01 Jan 0000 00:00:00 GMT"),
            ] as [(TimeInterval, String)])
        func writesEdges(seconds: TimeInterval, text: String) {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(HTTPDate.format(date) == text)
            #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: seconds.rounded(.down)))
        }

        @Test(
            "A date the IMF-fixdate cannot write is nil: not finite, or its year not of four digits",
            arguments: [
                253_402_300_800, -62_167_219_200.5, -62_167_219_201, .infinity, -.infinity, .nan, 1e300, -1e300,
            ] as [TimeInterval])
        func writesNothingOutOfRange(seconds: TimeInterval) {
            #expect(HTTPDate.format(Date(timeIntervalSince1970: seconds)) == nil)
        }

        @Test("The writer agrees with DateFormatter and the parser over years 1600 to 9999, weekdays included")
        func writerAgreesWithDateFormatter() async {
            // DateFormatter's Gregorian calendar is Julian before October 1582: compared from 1600.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            var generator = SeededGenerator(seed: 0x0DA7E)
            var seconds: [TimeInterval] = (0..<2000).map { _ in
                TimeInterval.random(in: -11_676_096_000...253_402_300_799.99, using: &generator)
            }
            // every day around the leap days of 1900 (none), 2000, 2024 and 2100 (none), at noon
            for start in [-2_203_891_200, 951_868_800, 1_709_251_200, 4_107_542_400] as [TimeInterval] {
                for day in -3...3 { seconds.append(start + TimeInterval(day) * 86_400 + 43_200.25) }
            }
            for value in seconds {
                let date = Date(timeIntervalSince1970: value)
                let whole = Date(timeIntervalSince1970: value.rounded(.down))
                let text = HTTPDate.format(date)
                #expect(text == formatter.string(from: whole), "\(value)")
                #expect(text.flatMap { HTTPDate.parse($0) } == whole, "\(value)")
            }
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
