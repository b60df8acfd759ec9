/// Declares a field of the request's form body (`application/x-www-form-urlencoded`); `nil` sends nothing.
///
/// ```swift
/// struct LoginRequest: JSONDecodableRequest, RequestConfiguration {
///     @Field("user") var user = ""
///     @Field("password") var password = ""
///     @Field("remember") var remember: Bool? = nil
///     // ...
/// }
/// // body: user=…&password=…
/// ```
///
/// Fields are written in declaration order with HTML form encoding: a space is
/// sent as `+`, a `+` as `%2B`, and everything outside `A-Z a-z 0-9 - . _ ~` is
/// percent-encoded as UTF-8. Values follow the same rules as ``Query`` (arrays
/// repeat the key, `Bool` is `true`/`false`, dates are ISO 8601). The body is sent
/// with `Content-Type: application/x-www-form-urlencoded; charset=utf-8`.
///
/// Declaring `@Field` together with ``JSON`` fails with ``BuildError/conflictingBodies(_:_:)``.
@propertyWrapper
public struct Field<Value: Encodable>: BodyProtocol {
    /// The form field name.
    public let key: String
    /// The value.
    public var wrappedValue: Value

    /// Declares a form field.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value; `nil` omits the field.
    ///   - key: The field name.
    public init(wrappedValue: Value, _ key: String) {
        self.key = key
        self.wrappedValue = wrappedValue
    }

    /// Declares an optional form field that starts as `nil`.
    ///
    /// - Parameter key: The field name.
    public init<Wrapped>(_ key: String) where Value == Wrapped? {
        self.init(wrappedValue: nil, key)
    }

    /// The declared field.
    public var bodyParameters: [BodyParameter] {
        [BodyParameter(key: key, value: wrappedValue, encoding: .formURLEncoded)]
    }
}

extension Field: Sendable where Value: Sendable {}
extension Field: Equatable where Value: Equatable {}
extension Field: Hashable where Value: Hashable {}
