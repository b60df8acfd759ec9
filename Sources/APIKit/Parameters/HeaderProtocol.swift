/// A property wrapper, or any stored property, that contributes header fields to a request.
///
/// APIKit finds the properties of a ``RequestConfiguration`` that conform to
/// `HeaderProtocol` and sends their ``headerFields`` in declaration order.
/// ``Header`` and ``HeaderDict`` conform; so can your own wrappers:
///
/// ```swift
/// @propertyWrapper
/// struct Bearer: HeaderProtocol {
///     var wrappedValue: String?
///
///     var headerFields: [HeaderField] {
///         wrappedValue.map { [HeaderField(name: "Authorization", value: "Bearer \($0)")] } ?? []
///     }
/// }
/// ```
///
/// Every name must be an HTTP token and no value may hold a control character (CR, LF, NUL,
/// any other of U+0000–U+001F but tab, or DEL: <doc:DeclaringRequests#Control-characters>); the same name (compared case-insensitively)
/// may be declared only once per request. A violation fails the request with a
/// ``BuildError`` naming the property; nothing is sent.
public protocol HeaderProtocol {
    /// The header fields to send, in order; empty when there is nothing to send.
    var headerFields: [HeaderField] { get }
}
