/// Declares a query key with no value, sent only when `true`.
///
/// ```swift
/// struct Configuration: RequestConfiguration {
///     @KeyQuery("pretty") var pretty = true    // ...?pretty
/// }
/// ```
///
/// `true` appends the bare key with no `=`; `false` appends nothing. The key is
/// percent-encoded like ``Query``'s.
@propertyWrapper
public struct KeyQuery: QueryProtocol {
    /// The query key, before percent-encoding.
    let key: String
    /// Whether the key is sent.
    public var wrappedValue: Bool

    /// Declares a key-only query item.
    ///
    /// - Parameters:
    ///   - wrappedValue: Whether the key is sent.
    ///   - key: The query key.
    public init(wrappedValue: Bool, _ key: String) {
        self.key = key
        self.wrappedValue = wrappedValue
    }

    /// The bare key when the value is `true`, else nothing.
    public var queryParameters: [QueryParameter] {
        wrappedValue ? [.keyOnly(key)] : []
    }
}

extension KeyQuery: Sendable, Hashable {}
