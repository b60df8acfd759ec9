/// A property wrapper, or any stored property, that fills `{name}` placeholders in a request's path.
///
/// APIKit finds the properties of a ``RequestConfiguration`` that conform to
/// `PathProtocol` and puts each of their ``pathParameters`` into the placeholder of the
/// same name in ``Request/path``, encoded as one path segment by the rules of ``PathSegment``.
/// ``PathSegment`` conforms; so can your own wrappers:
///
/// ```swift
/// @propertyWrapper
/// struct UserID: PathProtocol {
///     var wrappedValue: Int
///     var pathParameters: [PathParameter] { [PathParameter(name: "user", value: wrappedValue)] }
/// }
/// ```
public protocol PathProtocol {
    /// The placeholders to fill, by name.
    var pathParameters: [PathParameter] { get }
}
