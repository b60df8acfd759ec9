/// Declares an HTTP header field; `nil` sends nothing.
///
/// ```swift
/// struct ProfileRequest: JSONDecodableRequest, RequestConfiguration {
///     @Header("Authorization") var authorization: String? = nil
///     @Header("Accept-Language") var language = "en"
///     // ...
/// }
/// ```
///
/// The key is the field name on the wire. It must be an HTTP token, and the value
/// must not hold a control character (CR, LF, NUL, any other of U+0000–U+001F but tab, or
/// DEL: <doc:DeclaringRequests#Control-characters>) — otherwise building the request fails with ``BuildError/invalidHeaderName(_:field:)``
/// or ``BuildError/invalidHeaderValue(name:field:)`` and nothing is sent.
/// A `Content-Type` or `Accept` declared here replaces the one APIKit would set.
@propertyWrapper
public struct Header: HeaderProtocol {
    /// The header field name.
    let key: String
    /// The header value; `nil` sends no header.
    public var wrappedValue: String?

    /// Declares a header field.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value; `nil` sends no header.
    ///   - key: The field name.
    public init(wrappedValue: String?, _ key: String) {
        self.key = key
        self.wrappedValue = wrappedValue
    }

    /// The declared field, or nothing when the value is `nil`.
    public var headerFields: [HeaderField] {
        guard let value = wrappedValue else { return [] }
        return [HeaderField(name: key, value: value)]
    }
}

extension Header: Sendable, Hashable {}
