/// One declared query item: a key and either an `Encodable` value or no value at all.
///
/// The value is encoded when the request is built: by default `nil` omits the item,
/// an array repeats the key, and scalars follow the rules documented on ``Query``; its
/// ``strategy`` and the request's ``Request/encodingStrategy`` can change that.
public struct QueryParameter: Sendable {
    /// What a query item carries besides its key.
    ///
    /// An encodable value is written as `key=value` by the query rules; ``keyOnly`` writes the
    /// key alone (`?debug`), as ``KeyQuery`` does.
    public enum Value: Sendable {
        /// A value, encoded by the query rules; an `Optional` that is `nil` omits the item.
        case encodable(any Encodable & Sendable)
        /// No value: the key alone, as in `?verbose`.
        case keyOnly
    }

    /// The key, before percent-encoding.
    public var key: String
    /// The value.
    public var value: Value
    /// How the value is written; members it does not state come from the request's
    /// ``Request/encodingStrategy``, then the defaults.
    public var strategy: EncodingStrategy

    /// Creates a query item whose value is encoded by the query rules.
    ///
    /// ```swift
    /// let ids = QueryParameter(key: "ids", value: [1, 2], strategy: .init(arrays: .commaSeparated))   // ids=1,2
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key, before percent-encoding.
    ///   - value: The value; `nil` omits the item, an array repeats the key (by default).
    ///   - strategy: How the value is written; by default as the request says.
    public init(key: String, value: any Encodable & Sendable, strategy: EncodingStrategy = .inherit) {
        self.key = key
        self.value = .encodable(value)
        self.strategy = strategy
    }

    /// Creates a query item that is the key alone, with no `=`.
    ///
    /// - Parameter key: The key, before percent-encoding.
    /// - Returns: A key-only query item.
    public static func keyOnly(_ key: String) -> QueryParameter {
        QueryParameter(key: key, keyOnlyValue: ())
    }

    private init(key: String, keyOnlyValue: Void) {
        self.key = key
        self.value = .keyOnly
        self.strategy = .inherit
    }
}
