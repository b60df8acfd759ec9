/// Reads an HTTP date (RFC 9110 §5.6.7) by hand: the preferred IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete forms every recipient must accept,
/// rfc850-date (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime-date (`Sun Nov  6 08:49:37 1994`);
/// and writes the IMF-fixdate, the one form a sender generates.
///
/// The one reader of HTTP dates: the cache's `Date`, `Expires` and `Last-Modified`, a
/// `Retry-After` date, a download's validator; and the one writer, of the `Date` the cache adds
/// to a response stored without one. A small parser rather than a `DateFormatter`, which costs
/// far more to make and to run than these few comparisons.
/// The day name is checked to be one, not checked against the date (recipients are told to be
/// tolerant); the time must be in range (a leap second `60` is accepted); anything else is not
/// a date, and the caller decides what that means (an invalid `Expires` is in the past).
enum HTTPDate {
    /// The date `text` names, or `nil` when it is not an HTTP date in one of the three forms.
    ///
    /// - Parameters:
    ///   - text: The field value.
    ///   - now: What a two-digit rfc850 year is read against: a year that would be more than
    ///     50 years in the future is the most recent past year with the same last two digits.
    static func parse(_ text: String, now: Date = Date()) -> Date? {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")) else { return asctime(bytes) }
        let dayName = bytes[bytes.startIndex..<comma]
        let rest = bytes[(comma + 1)...]
        if dayName.count == 3 {
            guard isOne(of: shortDays, dayName) else { return nil }
            return imfFixdate(rest)
        }
        guard isOne(of: longDays, dayName) else { return nil }
        return rfc850(rest, now: now)
    }

    /// The IMF-fixdate of `date` (`Sun, 06 Nov 1994 08:49:37 GMT`), which ``parse(_:now:)``
    /// reads back as the start of the second `date` is in.
    ///
    /// An HTTP date names a whole second: the fraction is dropped, rounding down — before 1970
    /// too, where the seconds since 1970 are negative — so the date written is never later than
    /// `date`. A date the form cannot write is `nil`: not finite, or outside the years 0000 to
    /// 9999 (four digits).
    ///
    /// - Parameter date: The date.
    /// - Returns: The IMF-fixdate, or `nil`.
    static func format(_ date: Date) -> String? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        // the first second of 0000-01-01 and the last of 9999-12-31; also false for NaN
        guard seconds >= -62_167_219_200, seconds <= 253_402_300_799 else { return nil }
        let whole = Int64(seconds)
        // floored division: a second before 1970 belongs to the day that starts before it
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let time = Int(whole - days * 86_400)
        let (year, month, day) = civil(daysSince1970: Int(days))
        // 1970-01-01 was a Thursday, `shortDays[3]`
        let weekday = Int(((days + 3) % 7 + 7) % 7)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(29)
        func capitalised(_ name: StaticString) {
            bytes.append(name.utf8Start[0] - 0x20)
            bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start + 1, count: name.utf8CodeUnitCount - 1))
        }
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(0x30 + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        capitalised(shortDays[weekday])
        bytes.append(contentsOf: ", ".utf8)
        digits(day, 2)
        bytes.append(0x20)
        capitalised(months[month - 1])
        bytes.append(0x20)
        digits(year, 4)
        bytes.append(0x20)
        digits(time / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(time / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(time % 60, 2)
        bytes.append(contentsOf: " GMT".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ` 06 Nov 1994 08:49:37 GMT`
    private static func imfFixdate(_ bytes: ArraySlice<UInt8>) -> Date? {
        var reader = Reader(bytes)
        guard reader.skip(" "), let day = reader.number(digits: 2), reader.skip(" "),
            let month = reader.month(), reader.skip(" "), let year = reader.number(digits: 4),
            reader.skip(" "), let time = reader.time(), reader.skip(" gmt"), reader.atEnd
        else { return nil }
        return date(year: year, month: month, day: day, time: time)
    }

    /// ` 06-Nov-94 08:49:37 GMT`
    private static func rfc850(_ bytes: ArraySlice<UInt8>, now: Date) -> Date? {
        var reader = Reader(bytes)
        guard reader.skip(" "), let day = reader.number(digits: 2), reader.skip("-"),
            let month = reader.month(), reader.skip("-"), let shortYear = reader.number(digits: 2),
            reader.skip(" "), let time = reader.time(), reader.skip(" gmt"), reader.atEnd
        else { return nil }
        // RFC 9110 §5.6.7: more than 50 years ahead is the most recent past year with those digits.
        let currentYear = Int(now.timeIntervalSince1970 / 86_400 / 365.2425) + 1970
        var year = currentYear - currentYear % 100 + shortYear
        if year > currentYear + 50 { year -= 100 }
        return date(year: year, month: month, day: day, time: time)
    }

    /// `Sun Nov  6 08:49:37 1994` (the day padded with a space, or written with two digits).
    private static func asctime(_ bytes: ArraySlice<UInt8>) -> Date? {
        var reader = Reader(bytes)
        guard let dayName = reader.take(3), isOne(of: shortDays, dayName), reader.skip(" "),
            let month = reader.month(), reader.skip(" ")
        else { return nil }
        _ = reader.skip(" ")
        guard let day = reader.number(digits: 2) ?? reader.number(digits: 1), reader.skip(" "),
            let time = reader.time(), reader.skip(" "), let year = reader.number(digits: 4), reader.atEnd
        else { return nil }
        return date(year: year, month: month, day: day, time: time)
    }

    /// The date, its seconds since 1970 counted in 64 bits: a date after January 2038 is more
    /// than 2^31 seconds away, past a 32-bit `Int` (watchOS).
    private static func date(year: Int, month: Int, day: Int, time: Int) -> Date? {
        guard day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        let days = Int64(daysSince1970(year: year, month: month, day: day))
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + Int64(time)))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
    /// `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of the proleptic Gregorian calendar `days` days after 1970-01-01 (H. Hinnant's
    /// `civil_from_days`, the inverse of ``daysSince1970(year:month:day:)``).
    private static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static let shortDays: [StaticString] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays: [StaticString] = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ]
    fileprivate static let months: [StaticString] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    private static func isOne(of names: [StaticString], _ bytes: ArraySlice<UInt8>) -> Bool {
        names.contains { matches(bytes, $0) }
    }

    /// Whether `bytes` are `literal` (lowercase ASCII), compared case-insensitively.
    fileprivate static func matches(_ bytes: ArraySlice<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        var index = bytes.startIndex
        for offset in 0..<literal.utf8CodeUnitCount {
            let byte = bytes[index]
            if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != literal.utf8Start[offset] { return false }
            index += 1
        }
        return true
    }

    /// Reads the parts of a date from the front of its bytes.
    private struct Reader {
        var bytes: ArraySlice<UInt8>

        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { bytes.isEmpty }

        /// Consumes `literal` (lowercase), compared case-insensitively (`GMT` is sometimes `gmt`).
        mutating func skip(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count >= count, HTTPDate.matches(bytes.prefix(count), literal) else { return false }
            bytes.removeFirst(count)
            return true
        }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard bytes.count >= count else { return nil }
            defer { bytes.removeFirst(count) }
            return bytes.prefix(count)
        }

        /// Exactly `digits` ASCII digits, and not followed by another digit.
        mutating func number(digits: Int) -> Int? {
            guard bytes.count >= digits else { return nil }
            var value = 0
            for byte in bytes.prefix(digits) {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            if let next = bytes.dropFirst(digits).first, next >= 0x30, next <= 0x39 { return nil }
            bytes.removeFirst(digits)
            return value
        }

        /// A month name, as its number from 1.
        mutating func month() -> Int? {
            guard let name = take(3), let index = HTTPDate.months.firstIndex(where: { HTTPDate.matches(name, $0) })
            else { return nil }
            return index + 1
        }

        /// `HH:MM:SS`, as seconds since midnight.
        mutating func time() -> Int? {
            guard let hour = number(digits: 2), hour < 24, skip(":"), let minute = number(digits: 2), minute < 60,
                skip(":"), let second = number(digits: 2), second <= 60
            else { return nil }
            return hour * 3600 + minute * 60 + second
        }
    }
}
