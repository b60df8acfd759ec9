/// Reads a response's `Retry-After` header (RFC 9110 §10.2.3): a number of seconds, or an HTTP
/// date.
enum RetryAfter {
    /// Seconds to wait that `response` asks for, never negative; `nil` without a readable
    /// `Retry-After` header.
    ///
    /// An HTTP date is measured from the response's own `Date` when it has a readable one: both
    /// are the server's clock, so the wait does not depend on how far this device's clock is off
    /// (a clock minutes fast would otherwise read a date minutes ahead as already past).
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - now: The current date, to turn an HTTP date into seconds when the response has no
    ///     `Date`.
    static func seconds(in response: HTTPURLResponse, now: Date) -> TimeInterval? {
        guard let value = response.value(forHTTPHeaderField: "Retry-After")?.trimmingCharacters(in: .whitespaces),
            !value.isEmpty
        else { return nil }
        if value.allSatisfy(\.isASCIIDigit) {
            return TimeInterval(value).map { max(0, $0) }
        }
        let sent = response.value(forHTTPHeaderField: "Date").flatMap { HTTPDate.parse($0, now: now) }
        let reference = sent ?? now
        guard let date = HTTPDate.parse(value, now: reference) else { return nil }
        return max(0, date.timeIntervalSince(reference))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool {
        ("0"..."9").contains(self)
    }
}
