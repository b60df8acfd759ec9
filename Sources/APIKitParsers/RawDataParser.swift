/// Returns the response body unchanged.
///
/// Use it for bodies you handle yourself, such as images or files. It sends
/// no `Accept` header and accepts any body, including an empty one.
///
/// ```swift
/// let bytes = RawDataParser().parse(data: Data([0x89, 0x50, 0x4E, 0x47]))
/// ```
public struct RawDataParser: Parser, Sendable {
    /// Creates a parser that returns the body as it is.
    public init() {}

    /// `nil`: the parser sends no `Accept` header.
    public var contentType: String? {
        nil
    }

    /// Returns the body.
    ///
    /// ```swift
    /// let body = RawDataParser().parse(data: Data("raw".utf8))
    /// // body == Data("raw".utf8)
    /// ```
    ///
    /// - Parameter data: The response body.
    /// - Returns: `data`, unchanged and uncopied.
    public func parse(data: Data) -> Data {
        data
    }
}
