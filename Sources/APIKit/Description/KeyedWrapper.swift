/// A built-in wrapper of one keyed value — ``Query``, ``Field``, ``JSON`` — as the serializer
/// reads it in place (``FieldKind``): one generic reading for all three, specialised for each
/// concrete value type.
protocol KeyedWrapper {
    associatedtype Value: Encodable
    var key: String { get }
    var wrappedValue: Value { get }
    var strategy: EncodingStrategy { get }

    /// Where the wrapper keeps its key, from its start: the field plan reads a type's keys
    /// there once (``FieldPlan/checkedJSONKeys``, ``FieldPlan/Item/plainKey``).
    static var keyOffset: Int? { get }
    /// Whether its values are members of a JSON body, whose keys must be distinct.
    static var isJSONMember: Bool { get }
}

extension Query: KeyedWrapper {
    static var keyOffset: Int? { MemoryLayout<Self>.offset(of: \Self.key) }
    static var isJSONMember: Bool { false }
}

extension Field: KeyedWrapper {
    static var keyOffset: Int? { MemoryLayout<Self>.offset(of: \Self.key) }
    static var isJSONMember: Bool { false }
}

extension JSON: KeyedWrapper {
    static var keyOffset: Int? { MemoryLayout<Self>.offset(of: \Self.key) }
    static var isJSONMember: Bool { true }
}
