/// One HTTP header field: a name and a value.
///
/// What a ``HeaderProtocol`` wrapper returns from ``HeaderProtocol/headerFields``. Building the
/// request checks each name (an HTTP token) and value (no CR, LF or NUL) and fails with a
/// ``BuildError`` naming the property otherwise; two fields whose names differ only in case are
/// a duplicate.
///
/// ```swift
/// let requestID = HeaderField(name: "X-Request-ID", value: UUID().uuidString)
/// ```
public struct HeaderField: Hashable, Sendable {
    /// The field name, such as `"Authorization"`. A request's names are checked for duplicates
    /// case-insensitively; two `HeaderField` values are equal only when their names match exactly.
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a header field.
    ///
    /// - Parameters:
    ///   - name: The field name; it must be an HTTP token.
    ///   - value: The field value; it must not hold a control character (CR, LF, NUL, any
    ///     other of U+0000–U+001F but tab, or DEL), or the request fails with
    ///     ``BuildError/invalidHeaderValue(name:field:)``.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
