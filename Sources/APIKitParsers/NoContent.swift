/// The value of a response that has no content, such as a `204 No Content`.
///
/// ``NoContentParser`` produces it. All `NoContent` values are equal.
///
/// ```swift
/// let result: NoContent = NoContentParser().parse(data: Data())
/// // result == NoContent()
/// ```
public struct NoContent: Sendable, Hashable, Codable {
    /// Creates the value that stands for "no content".
    public init() {}
}
