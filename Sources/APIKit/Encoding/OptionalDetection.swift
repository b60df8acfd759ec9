/// Lets code that holds a value as `Any` or `any Encodable` see through `Optional`.
///
/// A `nil` stored in an `Any` is not `nil` to `==`; the encoders ask this protocol instead,
/// so an `Int?` that is `nil`, or an `Int??` holding `.some(nil)`, is really omitted.
protocol OptionalProtocol {
    /// The innermost wrapped value, or `nil` when any level is `nil`.
    var flattenedValue: Any? { get }

    /// Whether this `Optional` is `nil` at its outer level.
    var isNone: Bool { get }
}

extension OptionalProtocol {
    /// Whether the `Optional` stored at `pointer` is `nil` at its outer level.
    ///
    /// Written here rather than in `extension Optional`, where naming `Self` would look up the
    /// metadata of `Optional<Wrapped>` on every call (~450 instructions); here it is passed in.
    static func isNone(at pointer: UnsafeRawPointer) -> Bool {
        pointer.assumingMemoryBound(to: Self.self).pointee.isNone
    }
}

extension Optional: OptionalProtocol {
    var isNone: Bool {
        switch self {
        case .none: true
        case .some: false
        }
    }

    var flattenedValue: Any? {
        switch self {
        case .none: nil
        case .some(let wrapped as any OptionalProtocol): wrapped.flattenedValue
        case .some(let wrapped): wrapped
        }
    }
}

/// Whether `value` is an `Optional` that is `nil` at some level.
func isNil(_ value: Any) -> Bool {
    guard let optional = value as? any OptionalProtocol else { return false }
    return optional.flattenedValue == nil
}
