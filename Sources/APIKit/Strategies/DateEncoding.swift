/// How a `Date` is written, in query strings, form bodies and JSON bodies.
///
/// ```swift
/// let date = Date(timeIntervalSince1970: 1_700_000_000.25)
/// @Query("at") var at = date                                                              // at=2023-11-14T22:13:20Z
/// @Query("at", strategy: .init(dates: .iso8601WithFractionalSeconds)) var precise = date  // at=2023-11-14T22:13:20.250Z
/// @Query("at", strategy: .init(dates: .secondsSince1970)) var seconds = date              // at=1700000000.25
/// @Query("at", strategy: .init(dates: .millisecondsSince1970)) var milliseconds = date    // at=1700000000250
/// @JSON("at", strategy: .init(dates: .secondsSince1970)) var json = date                  // {"at":1700000000.25}
/// @Query("day", strategy: .init(dates: .custom { $0.formatted(.iso8601.year().month().day()) })) var day = date
///                                                                                         // day=2023-11-14
/// ```
///
/// ISO 8601 texts are in UTC. Seconds and milliseconds are numbers — in JSON too — with no
/// locale: whole seconds have no fraction (`1700000000`), and milliseconds are rounded to a
/// whole number. ``custom(_:)`` produces text, a string in JSON. The
/// strategy applies to every `Date` in the value, nested ones and array elements too.
public struct DateEncoding: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case iso8601
        case iso8601WithFractionalSeconds
        case secondsSince1970
        case millisecondsSince1970
        case custom(CustomFormat)
    }

    /// A user's formatting function. Two are equal when they are the same value, made by one
    /// call to ``custom(_:)``: closures cannot be compared. A class, so that a strategy stays
    /// one word wide and cheap to copy into every parameter.
    final class CustomFormat: Hashable, Sendable {
        let format: @Sendable (Date) -> String

        init(format: @escaping @Sendable (Date) -> String) {
            self.format = format
        }

        static func == (lhs: CustomFormat, rhs: CustomFormat) -> Bool {
            lhs === rhs
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(self))
        }
    }

    let kind: Kind

    /// ISO 8601 in UTC, to the second: `2023-11-14T22:13:20Z`. The default.
    public static let iso8601 = DateEncoding(kind: .iso8601)

    /// ISO 8601 in UTC with milliseconds: `2023-11-14T22:13:20.250Z`.
    public static let iso8601WithFractionalSeconds = DateEncoding(kind: .iso8601WithFractionalSeconds)

    /// Seconds since 1970-01-01 UTC, as a number: `1700000000`, `1700000000.25`.
    public static let secondsSince1970 = DateEncoding(kind: .secondsSince1970)

    /// Whole milliseconds since 1970-01-01 UTC, rounded, as a number: `1700000000250`.
    public static let millisecondsSince1970 = DateEncoding(kind: .millisecondsSince1970)

    /// Text made by your own function; a JSON string in JSON bodies.
    ///
    /// ```swift
    /// @Query("day", strategy: .init(dates: .custom { $0.formatted(.iso8601.year().month().day()) }))
    /// var day = Date()   // day=2024-05-01
    ///
    /// let dayStyle = Date.ISO8601FormatStyle().year().month().day()   // or any FormatStyle
    /// @Field("start", strategy: .init(dates: .custom { dayStyle.format($0) })) var start = Date()
    /// ```
    ///
    /// - Parameter format: Returns the text for a date. It is called while the request is
    ///   built, on the thread that builds it.
    /// - Returns: The strategy. Closures cannot be compared: it equals only itself.
    public static func custom(_ format: @escaping @Sendable (Date) -> String) -> DateEncoding {
        DateEncoding(kind: .custom(CustomFormat(format: format)))
    }

    /// The strategy's name: `"iso8601"`, `"iso8601WithFractionalSeconds"`, `"secondsSince1970"`,
    /// `"millisecondsSince1970"` or `"custom"`.
    public var description: String {
        switch kind {
        case .iso8601: "iso8601"
        case .iso8601WithFractionalSeconds: "iso8601WithFractionalSeconds"
        case .secondsSince1970: "secondsSince1970"
        case .millisecondsSince1970: "millisecondsSince1970"
        case .custom: "custom"
        }
    }

    // MARK: Writing

    /// A date as a query or form value.
    func text(_ date: Date) -> String {
        switch kind {
        case .iso8601: date.formatted(Self.iso8601Style)
        case .iso8601WithFractionalSeconds: date.formatted(Self.fractionalStyle)
        case .secondsSince1970: Self.secondsText(date)
        case .millisecondsSince1970: String(Self.milliseconds(date))
        case .custom(let custom): custom.format(date)
        }
    }

    /// The seconds as `JSONEncoder` writes a `Double`: no trailing `.0`.
    static func secondsText(_ date: Date) -> String {
        var text = date.timeIntervalSince1970.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        return Int64(exactly: value) ?? (value < 0 ? Int64.min : Int64.max)
    }

    private static let utc = TimeZone(secondsFromGMT: 0) ?? .gmt
    private static let iso8601Style = Date.ISO8601FormatStyle(timeZone: utc)
    private static let fractionalStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: utc)
}
