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

    /// The text of a scalar value, `.absent` for `nil`, `.notScalar` for anything else,
    /// written with the default strategies (the scalar types are ``FormValue/scalar(_:)``'s).
    static func text(forScalar value: Any) throws(Failure) -> ScalarResult {
        switch try FormValue.scalar(value) {
        case .none, .list, .object: .notScalar
        case .null: .absent
        case .text(let text): .text(text)
        case .bool(let bool): .text(BoolEncoding.literal.text(bool))
        case .date(let date): .text(DateEncoding.iso8601.text(date))
        }
    }
}
