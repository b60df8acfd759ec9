/// A property wrapper, or any stored property, that contributes query items to a request's URL.
///
/// APIKit finds the properties of a ``RequestConfiguration`` that conform to
/// `QueryProtocol` and appends their ``queryParameters`` to the URL in
/// declaration order, encoding each value by the same rules as ``Query``.
/// ``Query``, ``QueryDict`` and ``KeyQuery`` conform; so can your own wrappers:
///
/// ```swift
/// @propertyWrapper
/// struct CommaSeparated: QueryProtocol {
///     let key: String
///     var wrappedValue: [String]
///
///     init(wrappedValue: [String], _ key: String) {
///         self.key = key
///         self.wrappedValue = wrappedValue
///     }
///
///     var queryParameters: [QueryParameter] {
///         [QueryParameter(key: key, value: wrappedValue.joined(separator: ","))]
///     }
/// }
/// ```
public protocol QueryProtocol {
    /// The query items to append, in order; empty when there is nothing to send.
    var queryParameters: [QueryParameter] { get }
}
