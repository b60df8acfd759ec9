extension JSONValue: Codable {
    /// A coding key for any member name of an object.
    private struct MemberKey: CodingKey {
        let stringValue: String

        var intValue: Int? {
            nil
        }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }

    /// Decodes whatever value the decoder holds.
    ///
    /// The value's kind is found by asking the decoder for each in turn:
    /// `null`, a boolean, an `Int64` (see ``integer(_:)``), a `Double`, a
    /// string, an array, an object. With `JSONDecoder`, a boolean is only
    /// ever `true` or `false` in the text and a number never reads as one.
    ///
    /// ```swift
    /// struct Event: Decodable {
    ///     var kind: String
    ///     var payload: JSONValue   // whatever shape this event's payload has
    /// }
    /// ```
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: A `DecodingError` if the value is none of the kinds above,
    ///   or `dataCorrupted` for a number too large for a `Double`, such as
    ///   `1e999`.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if let scalar = try Self.scalar(in: container) {
                self = scalar
                return
            }
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            if let count = container.count {
                elements.reserveCapacity(count)
            }
            while !container.isAtEnd {
                elements.append(try container.decode(JSONValue.self))
            }
            self = .array(elements)
            return
        }
        let container = try decoder.container(keyedBy: MemberKey.self)
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(container.allKeys.count)
        for key in container.allKeys {
            members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        self = .object(members)
    }

    /// Reads a scalar from a single-value container.
    ///
    /// Only the "not this kind" errors move on to the next kind. An `Int64`
    /// read fails in several ways for a number that is not exactly an
    /// integer (swift-foundation throws its internal `JSONError` for `1.5`),
    /// so every error there moves on to `Double`; a `Double` read that fails
    /// other than by a type mismatch is a number beyond `Double`, reported
    /// as `dataCorrupted` at its coding path.
    ///
    /// - Parameter container: The container holding the value.
    /// - Returns: The scalar, or `nil` if the value is an array or object.
    /// - Throws: `DecodingError.dataCorrupted` for a number beyond `Double`.
    private static func scalar(in container: any SingleValueDecodingContainer) throws -> JSONValue? {
        if container.decodeNil() {
            return .null
        }
        do {
            return .bool(try container.decode(Bool.self))
        } catch DecodingError.typeMismatch {}
        if let integer = try? container.decode(Int64.self) {
            return .integer(integer)
        }
        do {
            return .double(try container.decode(Double.self))
        } catch DecodingError.typeMismatch {
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: container.codingPath,
                    debugDescription: "The number does not fit in a Double.",
                    underlyingError: error
                )
            )
        }
        do {
            return .string(try container.decode(String.self))
        } catch DecodingError.typeMismatch {}
        return nil
    }

    /// Encodes the value as the JSON value it stands for.
    ///
    /// ```swift
    /// let text = try JSONEncoder().encode(["id": 7] as JSONValue)   // {"id":7}
    /// ```
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: An `EncodingError` from the encoder, such as
    ///   `invalidValue` from `JSONEncoder` for a ``double(_:)`` that is not
    ///   finite.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null:
            try container.encodeNil()
        case .bool(let value):
            try container.encode(value)
        case .integer(let value):
            try container.encode(value)
        case .double(let value):
            try container.encode(value)
        case .string(let value):
            try container.encode(value)
        case .array(let value):
            try container.encode(value)
        case .object(let value):
            try container.encode(value)
        }
    }
}
