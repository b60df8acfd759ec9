/// One declared body field: a key, an `Encodable` value and how the body is encoded.
///
/// What a ``BodyProtocol`` wrapper returns from ``BodyProtocol/bodyParameters``. All of a
/// request's body parameters must share one ``BodyEncoding``, and a whole body (``JSONBody``,
/// ``DataBody``, ``FileBody``) must be the only one; otherwise building fails with
/// ``BuildError/conflictingBodies(_:_:)``.
///
/// ```swift
/// let name = BodyParameter(key: "name", value: "Ada", encoding: .json)   // {"name":"Ada"}
/// ```
public struct BodyParameter: Sendable {
    /// The key: a JSON object member name or a form field name.
    public var key: String
    /// The value; an `Optional` that is `nil` omits the field.
    public var value: any Encodable & Sendable
    /// How the body that holds this field is encoded.
    public var encoding: BodyEncoding
    /// How the value is written (`Date`, `Bool`, `nil`, and for form bodies arrays and
    /// nesting); members it does not state come from the request's
    /// ``Request/encodingStrategy``, then the defaults. A whole JSON body (``BodyEncoding/wholeJSON``)
    /// uses its dates and bools members; raw and file bodies ignore it.
    public var strategy: EncodingStrategy

    /// Creates a body field.
    ///
    /// ```swift
    /// let at = BodyParameter(key: "at", value: Date(), encoding: .json, strategy: .init(dates: .secondsSince1970))
    /// ```
    ///
    /// - Parameters:
    ///   - key: A JSON object member name or a form field name.
    ///   - value: The value; `nil` omits the field (by default).
    ///   - encoding: How the body is encoded.
    ///   - strategy: How the value is written; by default as the request says.
    public init(
        key: String, value: any Encodable & Sendable, encoding: BodyEncoding, strategy: EncodingStrategy = .inherit
    ) {
        self.key = key
        self.value = value
        self.encoding = encoding
        self.strategy = strategy
    }
}
