/// One declared path parameter: the name of its placeholder and its value.
public struct PathParameter: Sendable {
    /// The placeholder's name: `"id"` fills `{id}`.
    public var name: String
    /// The value, written as text by the rules of ``Query`` and encoded as one path segment.
    public var value: any Encodable & Sendable

    /// Creates a path parameter.
    ///
    /// - Parameters:
    ///   - name: The placeholder's name, without braces.
    ///   - value: The value; it must be a single, non-`nil` value.
    public init(name: String, value: any Encodable & Sendable) {
        self.name = name
        self.value = value
    }
}
