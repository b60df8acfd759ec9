/// Declares the whole request body as one JSON value: an object, an array or a fragment.
///
/// ```swift
/// struct ImportRequest: JSONDecodableRequest, RequestConfiguration {
///     @JSONBody var items: [Item] = []          // body: [{"id":1,…},…]
///     // ...
/// }
/// ```
///
/// The value is encoded like a ``JSON`` member (dates as ISO 8601 unless the request's
/// ``Request/encodingStrategy`` says otherwise, bools by its bool strategy, `/` not escaped,
/// nested keys sorted) and sent with `Content-Type: application/json`; `nil` sends no body. It must
/// be the request's only body parameter: together with ``JSON``, ``Field`` or another
/// whole body it fails with ``BuildError/conflictingBodies(_:_:)``.
@propertyWrapper
public struct JSONBody<Value: Encodable>: BodyProtocol {
    /// The body's value.
    public var wrappedValue: Value

    /// Declares the whole body.
    ///
    /// - Parameter wrappedValue: The value; `nil` sends no body.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// The body, as one `.wholeJSON` parameter.
    public var bodyParameters: [BodyParameter] {
        [BodyParameter(key: "", value: wrappedValue, encoding: .wholeJSON)]
    }
}

extension JSONBody: Sendable where Value: Sendable {}
extension JSONBody: Equatable where Value: Equatable {}
extension JSONBody: Hashable where Value: Hashable {}
