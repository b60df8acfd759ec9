/// A property wrapper, or any stored property, that contributes fields to a request's body.
///
/// APIKit finds the properties of a ``RequestConfiguration`` that conform to
/// `BodyProtocol` and writes their ``bodyParameters`` into one body, in
/// declaration order. ``JSON`` and ``Field`` conform; so can your own wrappers:
///
/// ```swift
/// @propertyWrapper
/// struct Timestamp: BodyProtocol {
///     var wrappedValue: Date
///
///     var bodyParameters: [BodyParameter] {
///         [BodyParameter(key: "ts", value: Int(wrappedValue.timeIntervalSince1970), encoding: .json)]
///     }
/// }
/// ```
///
/// A wrapper of your own can add parts to a multipart body: a `.multipart` parameter's value
/// is sent as ``Part`` sends it — a ``MultipartFile`` as a file part, a scalar as a text part,
/// any other `Encodable` value as an `application/json` part:
///
/// ```swift
/// @propertyWrapper
/// struct Attachment: BodyProtocol {
///     var wrappedValue: URL
///
///     var bodyParameters: [BodyParameter] {
///         [BodyParameter(key: "attachment", value: MultipartFile.file(wrappedValue), encoding: .multipart)]
///     }
/// }
/// ```
///
/// A request's body fields must all use one ``BodyEncoding``: mixing `.json`,
/// `.formURLEncoded` and `.multipart` fails with ``BuildError/conflictingBodies(_:_:)``, and a
/// `.wholeJSON` or `.raw` parameter must be the only one.
public protocol BodyProtocol {
    /// The body fields to write, in order; a `nil` value is omitted.
    var bodyParameters: [BodyParameter] { get }
}
