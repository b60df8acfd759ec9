/// Reads a response's `Retry-After` header (RFC 9110 §10.2.3): a number of seconds, or an HTTP
/// date.
enum RetryAfter {
    /// Seconds to wait that `response` asks for, never negative; `nil` without a readable
    /// `Retry-After` header.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - now: The current date, to turn an HTTP date into seconds.
    static func seconds(in response: HTTPURLResponse, now: Date) -> TimeInterval? {
        guard let value = response.value(forHTTPHeaderField: "Retry-After")?.trimmingCharacters(in: .whitespaces),
            !value.isEmpty
        else { return nil }
        if value.allSatisfy(\.isASCIIDigit) {
            return TimeInterval(value).map { max(0, $0) }
        }
        guard let date = httpDate(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// Parses the preferred IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete
    /// forms HTTP recipients must accept.
    static func httpDate(_ text: String) -> Date? {
        // asctime pads the day with a space: "Sun Nov  6 08:49:37 1994".
        let text = text.split(separator: " ").joined(separator: " ")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool {
        ("0"..."9").contains(self)
    }
}
