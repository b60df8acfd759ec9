/// Declares the whole request body as one JSON value: an object, an array or a fragment.
///
/// ```swift
/// struct ImportRequest: JSONDecodableRequest, RequestConfiguration {
///     @JSONBody var items: [Item] = []          // body: [{"id":1,…},…]
///     // ...
/// }
/// ```
///
/// The value is encoded like a ``JSON`` member (dates as ISO 8601 unless the wrapper's
/// `strategy:` or the request's ``Request/encodingStrategy`` says otherwise, bools by its bool
/// strategy, `/` not escaped, nested keys sorted) and sent with `Content-Type: application/json`; `nil` sends no body. It must
/// be the request's only body parameter: together with ``JSON``, ``Field`` or another
/// whole body it fails with ``BuildError/conflictingBodies(_:_:)``.
@propertyWrapper
public struct JSONBody<Value: Encodable>: BodyProtocol {
    /// The body's value.
    public var wrappedValue: Value
    /// How the value is written (dates, bools, `nil`), over the request's
    /// ``Request/encodingStrategy``, like every other value wrapper's.
    public let strategy: EncodingStrategy

    /// Declares the whole body.
    ///
    /// - Parameter wrappedValue: The value; `nil` sends no body.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
        self.strategy = .inherit
    }

    /// Declares the whole body, written with its own strategy.
    ///
    /// ```swift
    /// @JSONBody(strategy: .dates(.secondsSince1970)) var events: [Event] = []
    /// ```
    ///
    /// - Parameters:
    ///   - wrappedValue: The value; `nil` sends no body.
    ///   - strategy: How the value is written, such as `.dates(.secondsSince1970)`.
    public init(wrappedValue: Value, strategy: EncodingStrategy) {
        self.wrappedValue = wrappedValue
        self.strategy = strategy
    }

    /// The body, as one `.wholeJSON` parameter.
    public var bodyParameters: [BodyParameter] {
        [BodyParameter(key: "", value: wrappedValue, encoding: .wholeJSON, strategy: strategy)]
    }
}

extension JSONBody: Sendable where Value: Sendable {}
extension JSONBody: Equatable where Value: Equatable {}
extension JSONBody: Hashable where Value: Hashable {}
