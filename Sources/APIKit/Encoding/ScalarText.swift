/// Writes `Encodable` values as the text of query items and form fields.
///
/// Common scalar types are recognised directly; anything else is run through
/// ``ScalarCapturingEncoder``, which accepts a single value or a flat list of
/// single values and rejects nesting. The rules are documented on ``Query``.
enum ScalarText {
    /// Why a value has no text form.
    enum Failure: Error {
        case unsupported(BuildError.UnsupportedValueReason)
        case encodingFailed(any Error)
    }

    /// Calls `body` with each text a value is written as: none for `nil` (or an empty
    /// array), one for a scalar, one per element for an array.
    static func forEachText(of value: any Encodable, _ body: (String) -> Void) throws(Failure) {
        switch KnownScalar(opening: value) {
        case .string(let string): return body(string)
        case .int(let int): return body(String(int))
        case .bool(let bool): return body(bool ? "true" : "false")
        case .double(let double):
            guard double.isFinite else { throw .unsupported(.nonFiniteNumber) }
            return body(String(describing: double))
        case .strings(let strings): return strings.forEach(body)
        case .ints(let ints): return ints.forEach { body(String($0)) }
        case .none: return
        case .unknown: break
        }
        // Look through Optionals first, so that an Optional array is encoded as the array.
        var value = value
        if let optional = value as? any OptionalProtocol {
            guard let wrapped = optional.flattenedValue as? any Encodable else { return }
            value = wrapped
        }
        switch try text(forScalar: value) {
        case .absent: return
        case .text(let text): return body(text)
        case .notScalar: break
        }
        let encoder = ScalarCapturingEncoder()
        var nesting: Failure { .unsupported(.nestedValue(String(describing: type(of: value)))) }
        do {
            try value.encode(to: encoder)
        } catch let failure as Failure {
            throw failure
        } catch is ScalarCapturingEncoder.NestingRejected {
            throw nesting
        } catch {
            throw encoder.rejectedNesting ? nesting : .encodingFailed(error)
        }
        if encoder.rejectedNesting { throw nesting }
        encoder.texts.forEach(body)
    }

    /// ``forEachText(of:_:)`` for a declared parameter: a failure becomes the ``BuildError``
    /// that names the property and the key.
    static func forEachText(
        of value: any Encodable,
        key: String,
        field: String,
        _ body: (String) -> Void
    ) throws(BuildError) {
        do {
            try forEachText(of: value, body)
        } catch {
            switch error {
            case .unsupported(let reason):
                throw .unsupportedValue(field: field, key: key, reason: reason)
            case .encodingFailed(let underlying):
                throw .valueEncodingFailed(field: field, key: key, underlying: underlying)
            }
        }
    }

    enum ScalarResult {
        case absent
        case text(String)
        case notScalar
    }

    /// The text of a scalar value, `.absent` for `nil`, `.notScalar` for anything else.
    static func text(forScalar value: Any) throws(Failure) -> ScalarResult {
        switch value {
        case let optional as any OptionalProtocol:
            guard let wrapped = optional.flattenedValue else { return .absent }
            return try text(forScalar: wrapped)
        case let string as String: return .text(string)
        case let substring as Substring: return .text(String(substring))
        case let bool as Bool: return .text(bool ? "true" : "false")
        case let integer as any BinaryInteger: return .text(String(describing: integer))
        case let double as Double:
            guard double.isFinite else { throw .unsupported(.nonFiniteNumber) }
            return .text(String(describing: double))
        case let float as Float:
            guard float.isFinite else { throw .unsupported(.nonFiniteNumber) }
            return .text(String(describing: float))
        case let decimal as Decimal:
            guard decimal.isFinite else { throw .unsupported(.nonFiniteNumber) }
            return .text(decimal.description)
        case let date as Date: return .text(date.formatted(iso8601))
        case let url as URL: return .text(url.absoluteString)
        case let uuid as UUID: return .text(uuid.uuidString)
        default: return .notScalar
        }
    }

    private static let iso8601 = Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: 0) ?? .gmt)
}
