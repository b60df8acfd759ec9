/// Declares the whole request body as one JSON value: an object, an array or a fragment.
///
/// ```swift
/// struct ImportRequest: JSONDecodableRequest, RequestConfiguration {
///     @JSONBody var items: [Item] = []          // body: [{"id":1,…},…]
///     // ...
/// }
/// ```
///
/// The value is encoded like a ``JSON`` member (`/` not escaped, nested keys sorted) and sent
/// with `Content-Type: application/json`; `nil` sends no body. It must be the request's only
/// body parameter: together with ``JSON``, ``Field`` or another whole body it fails with
/// ``BuildError/conflictingBodies(_:_:)``.
///
/// Like every other value wrapper, it takes a `strategy:` over the request's
/// ``Request/encodingStrategy``. For a whole JSON body two of its parts apply, everywhere in
/// the value: dates (ISO 8601 by default; `dates: .secondsSince1970` writes `86400`) and bools
/// (`bools: .numeric` writes `1` and `0`). The others do not: arrays and nesting shape query and
/// form text, and JSON has arrays and objects of its own; and `nil` inside the value is written
/// as the type's own `encode(to:)` says, as with `JSONEncoder` — a synthesized conformance leaves
/// a `nil` member out, `container.encode(note, forKey: .note)` writes `"note":null` — while a
/// `nil` whole value sends no body.
///
/// ```swift
/// @JSONBody(strategy: .init(bools: .numeric, dates: .secondsSince1970)) var events: [Event] = []
/// ```
@propertyWrapper
public struct JSONBody<Value: Encodable & Sendable>: BodyProtocol {
    /// The body's value.
    public var wrappedValue: Value
    /// How dates and bools inside the value are written, over the request's
    /// ``Request/encodingStrategy``; `.inherit` unless given.
    let strategy: EncodingStrategy

    /// Declares the whole body, written with the request's strategy or its own.
    ///
    /// ```swift
    /// @JSONBody var items: [Item] = []
    /// @JSONBody(strategy: .init(dates: .secondsSince1970)) var events: [Event] = []
    /// ```
    ///
    /// - Parameters:
    ///   - wrappedValue: The value; `nil` sends no body.
    ///   - strategy: How the value is written, such as `.init(dates: .secondsSince1970)`; `.inherit`
    ///     (the request's ``Request/encodingStrategy``) by default.
    public init(wrappedValue: Value, strategy: EncodingStrategy = .inherit) {
        self.wrappedValue = wrappedValue
        self.strategy = strategy
    }

    /// The body, as one `.wholeJSON` parameter.
    public var bodyParameters: [BodyParameter] {
        [BodyParameter(key: "", value: wrappedValue, encoding: .wholeJSON, strategy: strategy)]
    }
}

extension JSONBody: Sendable {}
extension JSONBody: Equatable where Value: Equatable {}
extension JSONBody: Hashable where Value: Hashable {}
