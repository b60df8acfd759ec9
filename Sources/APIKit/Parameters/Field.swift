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
/// repeat the key, objects nest in brackets, `Bool` is `true`/`false`, dates are
/// ISO 8601), and the same ``EncodingStrategy`` changes them:
///
/// ```swift
/// @Field("roles", strategy: .init(arrays: .indexed)) var roles = ["admin"]           // roles[0]=admin
/// @Field("at", strategy: .init(bools: .numeric, dates: .secondsSince1970)) var at = Date()
/// ```
///
/// The body is sent with `Content-Type: application/x-www-form-urlencoded; charset=utf-8`.
///
/// Declaring `@Field` together with ``JSON`` fails with ``BuildError/conflictingBodies(_:_:)``.
@propertyWrapper
public struct Field<Value: Encodable & Sendable>: BodyProtocol {
    /// The form field name.
    let key: String
    /// The value.
    public var wrappedValue: Value
    /// How the value is written; members it does not state come from the request's
    /// ``Request/encodingStrategy``, then the defaults.
    let strategy: EncodingStrategy

    /// Declares a form field.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value; `nil` omits the field.
    ///   - key: The field name.
    ///   - strategy: How the value is written, such as `.init(dates: .secondsSince1970)`; by default
    ///     as the request's ``Request/encodingStrategy`` says.
    public init(wrappedValue: Value, _ key: String, strategy: EncodingStrategy = .inherit) {
        self.key = key
        self.wrappedValue = wrappedValue
        self.strategy = strategy
    }

    /// The declared field.
    public var bodyParameters: [BodyParameter] {
        [BodyParameter(key: key, value: wrappedValue, encoding: .formURLEncoded, strategy: strategy)]
    }
}

extension Field: Sendable {}
extension Field: Equatable where Value: Equatable {}
extension Field: Hashable where Value: Hashable {}
