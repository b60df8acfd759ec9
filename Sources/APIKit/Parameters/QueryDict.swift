/// Declares several string query items at once; `nil` sends nothing.
///
/// ```swift
/// struct Configuration: RequestConfiguration {
///     @QueryDict var constants = ["format": "json", "lang": "en"]
/// }
/// ```
///
/// Items are appended sorted by key, so the URL is the same every time, and are
/// percent-encoded like ``Query``.
@propertyWrapper
public struct QueryDict: QueryProtocol {
    /// The query items, keyed by key; `nil` sends none.
    public var wrappedValue: [String: String]?

    /// Declares a dictionary of query items.
    ///
    /// - Parameter wrappedValue: The items, keyed by key; `nil` sends none.
    public init(wrappedValue: [String: String]? = nil) {
        self.wrappedValue = wrappedValue
    }

    /// The items, sorted by key.
    public var queryParameters: [QueryParameter] {
        guard let items = wrappedValue else { return [] }
        return items.sorted { $0.key < $1.key }.map { QueryParameter(key: $0.key, value: $0.value) }
    }
}

extension QueryDict: Sendable, Hashable {}
