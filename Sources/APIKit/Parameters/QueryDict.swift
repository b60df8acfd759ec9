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
    public init(wrappedValue: [String: String]?) {
        self.wrappedValue = wrappedValue
    }

    /// The items, sorted by key.
    public var queryParameters: [QueryParameter] {
        guard let items = wrappedValue else { return [] }
        // Sorted in place: one array, where sorting the dictionary and mapping it made two.
        var parameters = items.map { QueryParameter(key: $0.key, value: $0.value) }
        parameters.sort { $0.key < $1.key }
        return parameters
    }
}

extension QueryDict: Sendable, Hashable {}
