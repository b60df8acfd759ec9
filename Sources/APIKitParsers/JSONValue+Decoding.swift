/// The encoder ``JSONValue/decode(_:decoder:)`` writes values with. Its options are never changed,
/// and `JSONEncoder.encode` may be called from several threads at once.
private let jsonValueEncoder = JSONEncoder()

extension JSONValue {
    /// Converts the value into a `Decodable` type, as ``JSONParser`` would
    /// decode it from a body.
    ///
    /// Use it once part of an untyped body turns out to have a known shape:
    ///
    /// ```swift
    /// struct User: Decodable {
    ///     let id: Int
    ///     let name: String
    /// }
    ///
    /// let value = try JSONParser<JSONValue>().parse(data: body)
    /// if value["kind"]?.stringValue == "user", let payload = value["payload"] {
    ///     let user = try payload.decode(User.self)
    ///     print(user.name)
    /// }
    /// ```
    ///
    /// The value is written as JSON with `JSONEncoder` and read back with a
    /// ``JSONParser`` using `decoder`, so every option of the decoder
    /// applies (key and date strategies included) and failures are the
    /// ``ParsingError``s that parser throws, with the same reasons, coding
    /// paths and parser name (`JSONParser<User>`). The price is one round
    /// trip through JSON text; for a whole body, ``JSONParser`` is cheaper.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder to use; `nil`, the default, uses the `JSONDecoder` with
    ///     default options that ``JSONParser/init(decoder:)`` shares when given none.
    /// - Returns: The decoded value.
    /// - Throws: A ``ParsingError`` as ``JSONParser/parse(data:)`` throws it
    ///   when the value does not match `T`, and one with
    ///   ``ParsingError/Reason/dataCorrupted`` and an empty body when the
    ///   value holds a ``double(_:)`` that is not finite, which JSON cannot
    ///   write (no parsed value does). Any other error that `T`'s
    ///   `init(from:)` throws, unchanged.
    public func decode<T: Decodable>(_ type: T.Type = T.self, decoder: JSONDecoder? = nil) throws -> T {
        let parser = JSONParser<T>(decoder: decoder ?? defaultJSONDecoder)
        let body: Data
        do {
            body = try jsonValueEncoder.encode(self)
        } catch let error as EncodingError {
            var codingPath: [String] = []
            if case .invalidValue(_, let context) = error {
                codingPath = ParsingError.codingPath(from: context.codingPath)
            }
            throw ParsingError(
                .dataCorrupted, parser: JSONParser<T>.self, codingPath: codingPath, body: Data(),
                underlyingError: error)
        }
        return try parser.parse(data: body)
    }
}
