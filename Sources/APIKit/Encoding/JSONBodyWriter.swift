/// Writes the `@JSON` fields of a request as one JSON object, in declaration order.
///
/// Keys, strings, integers, booleans and doubles (and `Optional`s of them) are written
/// directly; any other value is encoded on its own by a shared `JSONEncoder`, so it keeps its
/// own structure. The direct writer produces exactly what that encoder would: the same
/// string escapes, `1` for `1.0`, `/` not escaped (`JSONBodyWriterTests` compares them).
/// Dates are ISO 8601 strings; `nil` members are left out. The keys of nested objects are
/// sorted: `JSONEncoder` would otherwise write them in hash order, which changes from one
/// process to the next, and a body must be the same every time (for signing, caching and
/// tests).
enum JSONBodyWriter {
    /// The encoder for values the direct writer does not know; `JSONEncoder` is `Sendable`,
    /// and its options are never changed after this point.
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

    /// Why a double could not be written.
    struct NonFiniteNumber: Error, CustomStringConvertible {
        var description: String { "a non-finite number (NaN or infinity) has no JSON form" }
    }

    /// The JSON object holding `members`, skipping those whose value is `nil`.
    static func write(_ members: [DeclaredParameters.Declared<BodyParameter>]) throws(MemberFailure) -> Data {
        var body: [UInt8] = [UInt8(ascii: "{")]
        body.reserveCapacity(64 * members.count + 2)
        var isFirst = true
        for index in members.indices {
            let value = members[index].parameter.value
            let known = KnownScalar(opening: value)
            if case .none = known { continue }
            if case .unknown = known, isNil(value) { continue }
            if !isFirst { body.append(UInt8(ascii: ",")) }
            isFirst = false
            appendString(members[index].parameter.key, to: &body)
            body.append(UInt8(ascii: ":"))
            do {
                switch known {
                case .string(let string): appendString(string, to: &body)
                case .int(let int): body.append(contentsOf: String(int).utf8)
                case .bool(let bool): body.append(contentsOf: (bool ? "true" : "false").utf8)
                case .double(let double): try appendDouble(double, to: &body)
                case .none, .unknown, .strings, .ints: body.append(contentsOf: try encoder.encode(value))
                }
            } catch {
                throw MemberFailure(index: index, underlying: error)
            }
        }
        body.append(UInt8(ascii: "}"))
        return Data(body)
    }

    /// One value as a whole JSON document: an object, an array or a fragment.
    static func document(_ value: any Encodable) throws -> Data {
        var body: [UInt8] = []
        switch KnownScalar(opening: value) {
        case .string(let string): appendString(string, to: &body)
        case .int(let int): body.append(contentsOf: String(int).utf8)
        case .bool(let bool): body.append(contentsOf: (bool ? "true" : "false").utf8)
        case .double(let double): try appendDouble(double, to: &body)
        case .none: body.append(contentsOf: "null".utf8)
        case .unknown, .strings, .ints: return try encoder.encode(value)
        }
        return Data(body)
    }

    /// A double as `JSONEncoder` writes it: the shortest text that reads back as the same
    /// value, without a trailing `.0`.
    static func appendDouble(_ double: Double, to body: inout [UInt8]) throws {
        guard double.isFinite else { throw NonFiniteNumber() }
        var text = double.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        body.append(contentsOf: text.utf8)
    }

    /// A JSON string literal with the escapes `JSONEncoder` uses.
    static func appendString(_ string: String, to body: inout [UInt8]) {
        body.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            // Most strings need no escape: copy them in one go.
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                body.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): body.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): body.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x08: body.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x0C: body.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                case 0x0A: body.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: body.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: body.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0x00..<0x20:
                    body.append(contentsOf: "\\u00".utf8)
                    body.append(hexDigits[Int(byte >> 4)])
                    body.append(hexDigits[Int(byte & 0x0F)])
                default: body.append(byte)
                }
            }
        }
        body.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
