/// A query or form value as a small ordered tree: the first step of writing a value that
/// is not a plain scalar. ``FormValueEncoder`` builds it from the value's `Encodable`
/// conformance; ``FormWriter`` flattens it into `key=text` items with the strategies.
///
/// Scalars keep what the strategies need (a `Bool`, a `Date`) and turn everything else into
/// text at once. Object members keep the order the type encodes them in; a dictionary's are
/// sorted by key, so the request is the same every time.
indirect enum FormValue {
    case text(String)
    case bool(Bool)
    case date(Date)
    case null
    case list([FormValue])
    case object([(key: String, value: FormValue)])

    /// The scalar form of a value of a known scalar type, `.null` for a `nil` `Optional`,
    /// or `nil` when the value must encode itself.
    static func scalar(_ value: Any) throws(ScalarText.Failure) -> FormValue? {
        switch value {
        case let optional as any OptionalProtocol:
            guard let wrapped = optional.flattenedValue else { return .null }
            return try scalar(wrapped)
        case let string as String: return .text(string)
        case let substring as Substring: return .text(String(substring))
        case let bool as Bool: return .bool(bool)
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
        case let date as Date: return .date(date)
        case let url as URL: return .text(url.absoluteString)
        case let uuid as UUID: return .text(uuid.uuidString)
        default: return nil
        }
    }

    /// The tree of any value: a scalar directly, anything else through its own `encode(to:)`.
    static func make(_ value: any Encodable) throws(ScalarText.Failure) -> FormValue {
        if let scalar = try scalar(value) { return scalar }
        do {
            return try FormValueEncoder.encode(value)
        } catch let failure as ScalarText.Failure {
            throw failure
        } catch {
            throw .encodingFailed(error)
        }
    }
}

/// Marks the types whose keyed members come in hash order, to be sorted.
protocol UnorderedKeyedValue {}

extension Dictionary: UnorderedKeyedValue {}
