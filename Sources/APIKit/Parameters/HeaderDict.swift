/// Declares several HTTP header fields at once.
///
/// ```swift
/// struct Configuration: RequestConfiguration {
///     @HeaderDict var clientHeaders = ["X-Client": "ios", "X-Client-Version": "4.2"]
/// }
/// ```
///
/// Fields are sent sorted by name, so the request is the same every time.
/// Each name and value is checked like a ``Header``'s, and a name declared twice
/// in one request — here and in a ``Header``, in any letter case — fails with
/// ``BuildError/duplicateHeader(_:fields:)``.
@propertyWrapper
public struct HeaderDict: HeaderProtocol {
    /// The header fields, keyed by name.
    public var wrappedValue: [String: String]

    /// Declares a dictionary of header fields.
    ///
    /// - Parameter wrappedValue: The fields, keyed by name.
    public init(wrappedValue: [String: String]) {
        self.wrappedValue = wrappedValue
    }

    /// The fields, sorted by name.
    public var headerFields: [HeaderField] {
        // Sorted in place: one array, where sorting the dictionary and mapping it made two.
        var fields = wrappedValue.map { HeaderField(name: $0.key, value: $0.value) }
        fields.sort { $0.name < $1.name }
        return fields
    }
}

extension HeaderDict: Sendable, Hashable {}
