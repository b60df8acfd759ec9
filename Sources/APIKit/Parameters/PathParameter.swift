/// One declared path parameter: the name of its placeholder and its value.
///
/// What a ``PathProtocol`` wrapper returns from ``PathProtocol/pathParameters``. The value fills
/// `{name}` in the request's `path` as one percent-encoded segment; a placeholder left unfilled,
/// one filled twice, or a value that is empty, `.` or `..` fails with a ``BuildError``.
///
/// ```swift
/// let id = PathParameter(name: "id", value: 42)   // "users/{id}" → "users/42"
/// ```
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
