/// Declares a query item whose value is any `Encodable`; `nil` sends nothing.
///
/// ```swift
/// struct SearchConfiguration: RequestConfiguration {
///     @Query("q") var text = "swift"
///     @Query("page") var page: Int? = nil
///     @Query("tags") var tags = ["server", "linux"]   // tags=server&tags=linux
/// }
/// ```
///
/// Keys and values are percent-encoded per RFC 3986: everything outside
/// `A-Z a-z 0-9 - . _ ~` is escaped, as UTF-8, so `+` is sent as `%2B` and a space
/// as `%20`. Items keep declaration order. Values are written as:
///
/// | value | written as |
/// | --- | --- |
/// | `nil` | item omitted |
/// | `""` | `key=` |
/// | `Bool` | `true` / `false` |
/// | integers, `Decimal` | exact decimal text, no locale, never an exponent (`18446744073709551615`, `0.0000001`) |
/// | `Double`, `Float` | as Swift prints them, no locale (`0.1`, `3.0`); below `0.0001` or above 2^53 (2^24 for `Float`) with an exponent: `1e-07`, `1e+21` (sent as `1e%2B21`) — see <doc:DeclaringRequests#Numbers> |
/// | enum with a raw value | the raw value |
/// | `Date` | ISO 8601 in UTC (`2024-05-01T12:00:00Z`) |
/// | `URL`, `UUID` | the absolute string, the UUID string |
/// | array | the key repeated for each element (`ids=1&ids=2`); `nil` elements are skipped |
/// | struct, dictionary | each member in brackets (`filter[status]=open`); a dictionary's sorted by key |
///
/// Those are the defaults. A strategy, for the field or for the whole request
/// (``Request/encodingStrategy``), writes arrays, nested objects, `Bool`, `Date` and `nil`
/// other ways; the field's overrides the request's member by member:
///
/// ```swift
/// @Query("ids", strategy: .init(arrays: .commaSeparated)) var ids = [1, 2]       // ids=1,2
/// @Query("tags", strategy: .init(arrays: .brackets)) var tags = ["a", "b"]       // tags[]=a&tags[]=b
/// @Query("filter", strategy: .init(nesting: .dotted)) var filter = Filter()      // filter.status=open
/// @Query("since", strategy: .init(dates: .secondsSince1970)) var since = Date()  // since=1714564800
/// @Query("on", strategy: .init(bools: .numeric)) var on = true                   // on=1
/// @Query("cursor", strategy: .init(nils: .empty)) var cursor: String? = nil      // cursor=
/// ```
///
/// See ``EncodingStrategy`` for every rule. A list of lists or of objects can only be written
/// with ``ArrayEncoding/indexed``; otherwise, and for a non-finite number, building fails
/// with ``BuildError/unsupportedValue(field:key:reason:)`` naming the property.
@propertyWrapper
public struct Query<Value: Encodable & Sendable>: QueryProtocol {
    /// The query key, before percent-encoding.
    let key: String
    /// The value.
    public var wrappedValue: Value
    /// How the value is written; members it does not state come from the request's
    /// ``Request/encodingStrategy``, then the defaults.
    let strategy: EncodingStrategy

    /// Declares a query item.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value; `nil` omits the item.
    ///   - key: The query key.
    ///   - strategy: How the value is written, such as `.init(dates: .secondsSince1970)`; by default
    ///     as the request's ``Request/encodingStrategy`` says.
    public init(wrappedValue: Value, _ key: String, strategy: EncodingStrategy = .inherit) {
        self.key = key
        self.wrappedValue = wrappedValue
        self.strategy = strategy
    }

    /// The declared item.
    public var queryParameters: [QueryParameter] {
        [QueryParameter(key: key, value: wrappedValue, strategy: strategy)]
    }
}

extension Query: Sendable {}
extension Query: Equatable where Value: Equatable {}
extension Query: Hashable where Value: Hashable {}
