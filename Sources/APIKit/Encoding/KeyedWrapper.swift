/// A built-in wrapper of one keyed query or form value — ``Query``, ``Field`` — as the serializer
/// reads it in place (``FieldKind``): one generic reading for both, specialised for each
/// concrete value type.
protocol KeyedWrapper {
    associatedtype Value: Encodable
    var key: String { get }
    var wrappedValue: Value { get }
    var strategy: EncodingStrategy { get }
}

extension Query: KeyedWrapper {}
extension Field: KeyedWrapper {}
