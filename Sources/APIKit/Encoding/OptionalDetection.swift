/// Lets code that holds a value as `Any` or `any Encodable` see through `Optional`.
///
/// A `nil` stored in an `Any` is not `nil` to `==`; the encoders ask this protocol instead,
/// so an `Int?` that is `nil`, or an `Int??` holding `.some(nil)`, is really omitted.
protocol OptionalProtocol {
    /// The innermost wrapped value, or `nil` when any level is `nil`.
    var flattenedValue: Any? { get }
}

extension Optional: OptionalProtocol {
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
