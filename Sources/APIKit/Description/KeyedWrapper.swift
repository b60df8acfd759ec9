/// A built-in wrapper of one keyed value — ``Query``, ``Field``, ``JSON`` — as the serializer
/// reads it in place (``FieldKind``): one generic reading for all three, specialised for each
/// concrete value type.
protocol KeyedWrapper {
    associatedtype Value: Encodable
    var key: String { get }
    var wrappedValue: Value { get }
    var strategy: EncodingStrategy { get }

    /// For ``JSON``: where it keeps its key, so that the field plan checks a type's JSON keys
    /// once (``FieldPlan/checkedJSONKeys``); `nil` for the others.
    static var jsonKeyOffset: Int? { get }
}

extension KeyedWrapper {
    static var jsonKeyOffset: Int? { nil }
}

extension Query: KeyedWrapper {}
extension Field: KeyedWrapper {}

extension JSON: KeyedWrapper {
    static var jsonKeyOffset: Int? { MemoryLayout<Self>.offset(of: \Self.key) }
}
