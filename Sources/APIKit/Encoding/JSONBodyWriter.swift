/// Writes the `@JSON` fields of a request as one JSON object, in declaration order.
///
/// Keys, strings, integers, booleans and doubles (and `Optional`s of them) are written
/// directly; any other value is encoded on its own by a shared `JSONEncoder`, so it keeps its
/// own structure. The direct writer produces exactly what that encoder would: the same
/// string escapes, `1` for `1.0`, `/` not escaped (`JSONBodyWriterTests` compares them).
/// Dates are ISO 8601 strings and `nil` members are left out, unless the request's or the
/// member's ``EncodingStrategy`` says otherwise (dates, bools and nils apply to JSON). The keys of nested objects are
/// sorted: `JSONEncoder` would otherwise write them in hash order, which changes from one
/// process to the next, and a body must be the same every time (for signing, caching and
/// tests).
enum JSONBodyWriter {
    /// The encoder for values the direct writer does not know; `JSONEncoder` is `Sendable`,
    /// and its options are never changed after this point.
    private static let encoder = makeEncoder(dates: .iso8601)

    /// Why a double could not be written.
    struct NonFiniteNumber: Error, CustomStringConvertible {
        var description: String { "a non-finite number (NaN or infinity) has no JSON form" }
    }

    /// Appends a member: nothing for a `nil` the nil strategy omits, else `,` (after the first
    /// member), the key and the value. The common scalars are written as they are held
    /// (``DeclaredValue``); inlined, so that the field plan's writer, which knows the value's
    /// type, gets a writer specialised for it (``URLRequestSerializer``).
    ///
    /// - Parameters:
    ///   - field: The member's strategy, read member by member where it is stored; only its
    ///     nils and bools apply to a scalar.
    ///   - request: The request's strategy, which `field` overrides.
    ///   - isFirst: Whether no member has been written yet; cleared when this one is.
    /// - Throws: ``NonFiniteNumber`` for a NaN or infinite double, or what encoding another
    ///   value throws.
    @inline(__always)
    static func appendMember(
        _ value: consuming DeclaredValue,
        key: String,
        field: @autoclosure () -> EncodingStrategy,
        request: EncodingStrategy,
        isFirst: inout Bool,
        to body: inout [UInt8]
    ) throws {
        switch consume value {
        case .other(let other) where !isNil(other.value):
            appendKey(key, isFirst: &isFirst, to: &body)
            try appendEncoded(other.value, strategy: ResolvedStrategy(field: field(), request: request), to: &body)
        case .none, .other:
            guard ResolvedStrategy.nils(field: field().nils, request: request.nils) == .null else { return }
            appendKey(key, isFirst: &isFirst, to: &body)
            body.append(contentsOf: "null".utf8)
        case .string(let string):
            appendKey(key, isFirst: &isFirst, to: &body)
            appendString(string, to: &body)
        case .int(let int):
            appendKey(key, isFirst: &isFirst, to: &body)
            body.appendDecimal(int)
        case .bool(let bool):
            appendKey(key, isFirst: &isFirst, to: &body)
            let bools = ResolvedStrategy.bools(field: field().bools, request: request.bools)
            bools.appendText(bool, to: &body)
        case .double(let double):
            guard double.isFinite else { throw NonFiniteNumber() }
            appendKey(key, isFirst: &isFirst, to: &body)
            try appendDouble(double, to: &body)
        case .strings(let strings):
            appendKey(key, isFirst: &isFirst, to: &body)
            appendStrings(strings, to: &body)
        case .ints(let ints):
            appendKey(key, isFirst: &isFirst, to: &body)
            appendInts(ints, to: &body)
        }
    }

    /// Appends `,` unless this is the first member, then the key and `:`.
    @inline(__always)
    private static func appendKey(_ key: String, isFirst: inout Bool, to body: inout [UInt8]) {
        if !isFirst { body.append(UInt8(ascii: ",")) }
        isFirst = false
        appendString(key, to: &body)
        body.append(UInt8(ascii: ":"))
    }

    /// One value as a whole JSON document: an object, an array or a fragment.
    ///
    /// - Parameter strategy: Its dates and bools strategies apply.
    static func document(_ value: DeclaredValue, strategy: ResolvedStrategy) throws -> Data {
        var body: [UInt8] = []
        switch value {
        case .string(let string): appendString(string, to: &body)
        case .int(let int): body.appendDecimal(int)
        case .bool(let bool): strategy.bools.appendText(bool, to: &body)
        case .double(let double): try appendDouble(double, to: &body)
        case .strings(let strings): appendStrings(strings, to: &body)
        case .ints(let ints): appendInts(ints, to: &body)
        case .none: body.append(contentsOf: "null".utf8)
        case .other(let other): try appendEncoded(other.value, strategy: strategy, to: &body)
        }
        return Data(body)
    }

    /// A value encoded by `JSONEncoder` with the strategy's dates, and its bools rewritten
    /// as `1`/`0` for ``BoolEncoding/numeric``.
    private static func appendEncoded(
        _ value: any Encodable,
        strategy: ResolvedStrategy,
        to body: inout [UInt8]
    ) throws {
        let encoded = try encoder(for: strategy.dates).encode(value)
        if strategy.bools == .numeric {
            appendWithNumericBools(encoded, to: &body)
        } else {
            body.append(contentsOf: encoded)
        }
    }

    /// The encoder that writes dates by `dates`; a shared one for each built-in strategy.
    private static func encoder(for dates: DateEncoding) -> JSONEncoder {
        switch dates.kind {
        case .iso8601: encoder
        case .iso8601WithFractionalSeconds: fractionalSecondsEncoder
        case .secondsSince1970: secondsEncoder
        case .millisecondsSince1970: millisecondsEncoder
        case .custom: makeEncoder(dates: dates)
        }
    }

    // Like `encoder`, these are never changed after they are made.
    private static let fractionalSecondsEncoder = makeEncoder(dates: .iso8601WithFractionalSeconds)
    private static let secondsEncoder = makeEncoder(dates: .secondsSince1970)
    private static let millisecondsEncoder = makeEncoder(dates: .millisecondsSince1970)

    /// An encoder like `encoder` whose dates are written as `DateEncoding` says: the
    /// numbers of the epoch strategies as numbers, every other text as a string.
    private static func makeEncoder(dates: DateEncoding) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            // a date of NaN or infinite seconds has no text (Foundation writes one of year 506713)
            guard date.timeIntervalSince1970.isFinite else {
                throw EncodingError.invalidValue(
                    date, .init(codingPath: encoder.codingPath, debugDescription: "a non-finite date"))
            }
            var container = encoder.singleValueContainer()
            switch dates.kind {
            case .secondsSince1970: try container.encode(date.timeIntervalSince1970)
            case .millisecondsSince1970: try container.encode(DateEncoding.milliseconds(date))
            case .iso8601, .iso8601WithFractionalSeconds, .custom: try container.encode(dates.text(date))
            }
        }
        return encoder
    }

    /// Appends JSON text with each `true` and `false` literal outside strings written as `1`
    /// and `0`. Outside strings, `t` and `f` start nothing but those literals.
    static func appendWithNumericBools(_ json: Data, to body: inout [UInt8]) {
        body.reserveCapacity(body.count + json.count)
        var inString = false
        var escaped = false
        var skip = 0
        for byte in json {
            if skip > 0 {
                skip -= 1
                continue
            }
            if inString {
                body.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                body.append(byte)
            case UInt8(ascii: "t"):
                body.append(UInt8(ascii: "1"))
                skip = 3  // "rue"
            case UInt8(ascii: "f"):
                body.append(UInt8(ascii: "0"))
                skip = 4  // "alse"
            default:
                body.append(byte)
            }
        }
    }

    /// A double as `JSONEncoder` writes it: the shortest text that reads back as the same
    /// value, without a trailing `.0`.
    static func appendDouble(_ double: Double, to body: inout [UInt8]) throws {
        guard double.isFinite else { throw NonFiniteNumber() }
        var text = double.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        body.append(contentsOf: text.utf8)
    }

    /// A JSON array of strings, as `JSONEncoder` writes it: `["a","b"]`. No strategy applies
    /// to its elements.
    static func appendStrings(_ strings: [String], to body: inout [UInt8]) {
        body.append(UInt8(ascii: "["))
        for index in strings.indices {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            appendString(strings[index], to: &body)
        }
        body.append(UInt8(ascii: "]"))
    }

    /// A JSON array of integers, as `JSONEncoder` writes it: `[1,2]`.
    static func appendInts(_ ints: [Int], to body: inout [UInt8]) {
        body.append(UInt8(ascii: "["))
        for index in ints.indices {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.appendDecimal(ints[index])
        }
        body.append(UInt8(ascii: "]"))
    }

    /// A JSON string literal with the escapes `JSONEncoder` uses.
    @inline(__always)
    static func appendString(_ string: String, to body: inout [UInt8]) {
        body.append(UInt8(ascii: "\""))
        string.withUTF8InPlace { appendEscaped(utf8: $0, to: &body) }
        body.append(UInt8(ascii: "\""))
    }

    /// The UTF-8 bytes of a string literal's content, escaped.
    private static func appendEscaped(utf8: UnsafeBufferPointer<UInt8>, to body: inout [UInt8]) {
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

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
