/// Recognises the value types requests use most, by comparing metatypes.
///
/// Comparing `T.self` with a concrete type is a pointer comparison, where `value as? String`
/// is a call into the runtime's dynamic cast and `value as? any OptionalProtocol` a
/// conformance lookup. The encoders ask here first and fall back to casts for other types.
enum KnownScalar {
    case string(String)
    case int(Int)
    case bool(Bool)
    case double(Double)
    case strings([String])
    case ints([Int])
    /// An `Optional` of one of the types above, holding `nil`.
    case none
    /// Not one of the types above: use the general path.
    case unknown

    init<T>(_ value: T) {
        let type = T.self
        if type == String.self {
            self = .string(Self.reinterpret(value, as: String.self))
        } else if type == Int.self {
            self = .int(Self.reinterpret(value, as: Int.self))
        } else if type == Bool.self {
            self = .bool(Self.reinterpret(value, as: Bool.self))
        } else if type == Double.self {
            self = .double(Self.reinterpret(value, as: Double.self))
        } else if type == [String].self {
            self = .strings(Self.reinterpret(value, as: [String].self))
        } else if type == [Int].self {
            self = .ints(Self.reinterpret(value, as: [Int].self))
        } else if type == String?.self {
            self = Self.reinterpret(value, as: String?.self).map(KnownScalar.string) ?? .none
        } else if type == Int?.self {
            self = Self.reinterpret(value, as: Int?.self).map(KnownScalar.int) ?? .none
        } else if type == Bool?.self {
            self = Self.reinterpret(value, as: Bool?.self).map(KnownScalar.bool) ?? .none
        } else if type == Double?.self {
            self = Self.reinterpret(value, as: Double?.self).map(KnownScalar.double) ?? .none
        } else if type == [String]?.self {
            self = Self.reinterpret(value, as: [String]?.self).map(KnownScalar.strings) ?? .none
        } else if type == [Int]?.self {
            self = Self.reinterpret(value, as: [Int]?.self).map(KnownScalar.ints) ?? .none
        } else {
            self = .unknown
        }
    }

    /// Opens an existential and recognises the value inside.
    init(opening value: any Encodable) {
        self = Self.recognise(value)
    }

    private static func recognise<T: Encodable>(_ value: T) -> KnownScalar {
        KnownScalar(value)
    }

    /// `value` as `U`; the caller has checked that `T` is `U`.
    @inline(__always)
    private static func reinterpret<T, U>(_ value: T, as _: U.Type) -> U {
        unsafeBitCast(value, to: U.self)
    }
}
