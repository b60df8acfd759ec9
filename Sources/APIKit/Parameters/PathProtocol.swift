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

/// One declared path parameter: the name of its placeholder and its value.
public struct PathParameter {
    /// The placeholder's name: `"id"` fills `{id}`.
    public var name: String
    /// The value, written as text by the rules of ``Query`` and encoded as one path segment.
    public var value: any Encodable

    /// Creates a path parameter.
    ///
    /// - Parameters:
    ///   - name: The placeholder's name, without braces.
    ///   - value: The value; it must be a single, non-`nil` value.
    public init(name: String, value: any Encodable) {
        self.name = name
        self.value = value
    }
}
