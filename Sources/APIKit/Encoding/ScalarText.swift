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

    /// The texts a value is written as: none for `nil` (or an empty array), one for a
    /// scalar, one per element for an array.
    static func texts(for value: any Encodable) throws(Failure) -> [String] {
        switch try text(forScalar: value) {
        case .absent: return []
        case .text(let text): return [text]
        case .notScalar: break
        }
        let encoder = ScalarCapturingEncoder()
        let nesting = Failure.unsupported(.nestedValue(String(describing: type(of: value))))
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
        return encoder.texts
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
