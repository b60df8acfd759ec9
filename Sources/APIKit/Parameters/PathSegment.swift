/// Declares the value of a `{name}` placeholder in the request's path, sent as one path segment.
///
/// ```swift
/// struct UserPostsRequest: JSONDecodableRequest, RequestConfiguration {
///     @PathSegment("user") var user = "me"
///     @PathSegment("page") var page = 1
///
///     struct Response: Decodable { var titles: [String] }
///
///     let base = URL(string: "https://api.example.com/v1")!
///     let path = "users/{user}/posts/{page}"     // users/me/posts/1
///     let method: HTTPMethod = .get
/// }
/// ```
///
/// The value is written as text by the rules of ``Query`` (numbers, `Bool`, raw values,
/// ISO 8601 dates) and percent-encoded as **one path segment**: everything outside
/// `A-Z a-z 0-9 - . _ ~` is escaped, so `/` becomes `%2F` and `?`, `#`, a space and `+`
/// are escaped too — a value cannot reach another segment, the query or the fragment.
///
/// These fail with a ``BuildError`` naming the property, and nothing is sent:
/// a placeholder without a value or with a `nil` value (``BuildError/missingPathValue(_:path:)``),
/// a value whose placeholder is not in the path (``BuildError/unusedPathValue(_:field:path:)``),
/// one name declared twice (``BuildError/duplicatePathValue(_:fields:)``), and a value that
/// is empty, `.` or `..`, or holds a control character or a tab (U+0000–U+001F or DEL;
/// ``BuildError/invalidPathValue(_:field:reason:)``).
///
/// (It is not called `Path`, so that it does not clash with SwiftUI's `Path` in files that
/// import both.)
@propertyWrapper
public struct PathSegment<Value: Encodable & Sendable>: PathProtocol {
    /// The placeholder's name, without braces.
    let key: String
    /// The value.
    public var wrappedValue: Value

    /// Declares the value of a path placeholder.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value.
    ///   - key: The placeholder's name: `"id"` fills `{id}`.
    public init(wrappedValue: Value, _ key: String) {
        self.key = key
        self.wrappedValue = wrappedValue
    }

    /// The declared value.
    public var pathParameters: [PathParameter] {
        [PathParameter(name: key, value: wrappedValue)]
    }
}

extension PathSegment: Sendable {}
extension PathSegment: Equatable where Value: Equatable {}
extension PathSegment: Hashable where Value: Hashable {}
