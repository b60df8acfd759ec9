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
        guard let date = HTTPDate.parse(value, now: now) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool {
        ("0"..."9").contains(self)
    }
}
