/// A value written as text — a query item, a form field, a multipart text part or a path
/// segment — as a small ordered tree: the one value encoder those four share.
/// ``FormValueEncoder`` builds it from the value's `Encodable` conformance; ``FormWriter``
/// flattens it into `key=text` items with the strategies, and ``flatTexts(_:)`` gives the
/// texts of a value without structure (a part per element, a path segment).
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

    /// Why a value has no text form.
    enum Failure: Error {
        case unsupported(BuildError.UnsupportedValueReason)
        case encodingFailed(any Error)

        /// The build error that names the property and the key the value was declared with.
        func buildError(field: String, key: String) -> BuildError {
            switch self {
            case .unsupported(let reason): .unsupportedValue(field: field, key: key, reason: reason)
            case .encodingFailed(let underlying): .valueEncodingFailed(field: field, key: key, underlying: underlying)
            }
        }
    }

    /// The tree of a declared value.
    static func make(_ value: DeclaredValue) throws(Failure) -> FormValue {
        switch value {
        case .string(let string): return .text(string)
        case .int(let int): return .text(String(int))
        case .bool(let bool): return .bool(bool)
        case .double(let double):
            guard double.isFinite else { throw .unsupported(.nonFiniteNumber) }
            return .text(String(describing: double))
        case .strings(let strings): return .list(strings.map(FormValue.text))
        case .ints(let ints): return .list(ints.map { .text(String($0)) })
        case .none: return .null
        case .other(let other):
            if let scalar = try scalar(other.value) { return scalar }
            return try encoded(other.value)
        }
    }

    /// The tree of a value that is not a scalar, from its own `encode(to:)`.
    private static func encoded(_ value: any Encodable) throws(Failure) -> FormValue {
        do {
            return try FormValueEncoder.encode(value)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .encodingFailed(error)
        }
    }

    /// The scalar form of a value of a known scalar type, `.null` for a `nil` `Optional`,
    /// or `nil` when the value must encode itself.
    static func scalar(_ value: Any) throws(Failure) -> FormValue? {
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
        case let date as Date:
            guard date.timeIntervalSince1970.isFinite else { throw .unsupported(.nonFiniteNumber) }
            return .date(date)
        case let url as URL: return .text(url.absoluteString)
        case let uuid as UUID: return .text(uuid.uuidString)
        default: return nil
        }
    }

    /// The text of a scalar node, `nil` for a list or an object, and for `nil` when the
    /// strategy omits it.
    func text(_ strategy: ResolvedStrategy) -> String? {
        switch self {
        case .text(let text): text
        case .bool(let bool): strategy.bools.text(bool)
        case .date(let date): strategy.dates.text(date)
        case .null: strategy.nils.text
        case .list, .object: nil
        }
    }

    /// The texts of a value without structure: none for an omitted `nil`, one for a scalar,
    /// one per element for a list of scalars (`nil` elements as the strategy says); `nil`
    /// for an object, or a list holding a list or an object.
    func flatTexts(_ strategy: ResolvedStrategy) -> [String]? {
        switch self {
        case .object: return nil
        case .list(let elements):
            var texts: [String] = []
            texts.reserveCapacity(elements.count)
            for element in elements {
                switch element {
                case .list, .object: return nil
                case .text, .bool, .date, .null: if let text = element.text(strategy) { texts.append(text) }
                }
            }
            return texts
        case .text, .bool, .date, .null:
            return text(strategy).map { [$0] } ?? []
        }
    }
}

/// Marks the types whose keyed members come in hash order, to be sorted.
protocol UnorderedKeyedValue {}

extension Dictionary: UnorderedKeyedValue {}
