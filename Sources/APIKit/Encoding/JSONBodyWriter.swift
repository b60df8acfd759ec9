/// Writes the `@JSON` fields of a request as one JSON object, in declaration order.
///
/// Each value is encoded on its own by a shared `JSONEncoder` (so it keeps its own
/// structure), and the members are joined with their escaped keys. Dates are ISO 8601
/// strings; `/` is not escaped; `nil` members are left out. The keys of nested objects
/// are sorted: `JSONEncoder` would otherwise write them in hash order, which changes
/// from one process to the next, and a body must be the same every time (for signing,
/// caching and tests).
enum JSONBodyWriter {
    /// The encoder used for every value; `JSONEncoder` is `Sendable`, and its options are
    /// never changed after this point.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    /// A member that failed to encode.
    struct MemberFailure: Error {
        var index: Int
        var underlying: any Error
    }

    /// The JSON object holding `members`, skipping those whose value is `nil`.
    static func write(_ members: [(key: String, value: any Encodable)]) throws(MemberFailure) -> Data {
        var body = Data("{".utf8)
        var isFirst = true
        for (index, member) in members.enumerated() where !isNil(member.value) {
            do {
                let key = try encoder.encode(member.key)
                let value = try encoder.encode(member.value)
                if !isFirst { body.append(UInt8(ascii: ",")) }
                body.append(key)
                body.append(UInt8(ascii: ":"))
                body.append(value)
                isFirst = false
            } catch {
                throw MemberFailure(index: index, underlying: error)
            }
        }
        body.append(UInt8(ascii: "}"))
        return body
    }
}
