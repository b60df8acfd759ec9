/// A declared value as the intermediate form holds it: the value types requests use most
/// unboxed, any other as `any Encodable`.
///
/// They are recognised by comparing metatypes: comparing `T.self` with a concrete type is a
/// pointer comparison, which the compiler folds away where `T` is known (a field plan's
/// specialised reading), where `value as? String` is a call into the runtime's dynamic cast
/// and `value as? any OptionalProtocol` a conformance lookup. Every writer — query and form
/// (``FormWriter``), JSON (``JSONBodyWriter``), the value tree (``FormValue``) — switches
/// over this one type.
enum DeclaredValue {
    case string(String)
    case int(Int)
    case bool(Bool)
    case double(Double)
    case strings([String])
    case ints([Int])
    /// An `Optional` of one of the types above, holding `nil`.
    case none
    /// A value of any other type, for the writers' general path (an `Optional` of another
    /// type, `nil` or not, among them).
    case other(Other)

    /// A value of any other type, in a class: copying a declared value then retains one
    /// reference whatever it holds, where an `any Encodable` payload is copied through its
    /// type's value witnesses, which costs more for a request of many fields.
    final class Other {
        let value: any Encodable

        init(_ value: any Encodable) {
            self.value = value
        }
    }

    /// Recognises `value`, specialised when `T` is known.
    @inline(__always)
    init<T: Encodable>(_ value: T) {
        self = Self.recognise(value) ?? .other(Other(value))
    }

    /// Opens an existential and recognises the value inside; any other value is boxed again.
    init(opening value: any Encodable) {
        // Passed to a parameter constrained to `Encodable`, the existential is opened: `T` is
        // the type inside. (An unconstrained `T` would be `any Encodable` itself, and no value
        // would be recognised.)
        self = Self.opened(value)
    }

    private static func opened<T: Encodable>(_ value: T) -> DeclaredValue {
        recognise(value) ?? .other(Other(value))
    }

    /// Whether the value is `nil`: `.none`, or an `Optional` of another type that is `nil` at
    /// some level.
    var isNil: Bool {
        switch self {
        case .none: true
        case .other(let other): APIKit.isNil(other.value)
        case .string, .int, .bool, .double, .strings, .ints: false
        }
    }

    /// The value inside any `Optional` around it, for the writers that look for a type (raw
    /// `Data`, a file `URL`, a ``MultipartFile``) and for errors that name the value's type.
    var unwrapped: Any {
        let boxed = boxed
        return (boxed as? any OptionalProtocol)?.flattenedValue ?? boxed
    }

    /// The value boxed, for the writers that take any value (a raw or file body, a part).
    var boxed: any Encodable {
        switch self {
        case .string(let string): string
        case .int(let int): int
        case .bool(let bool): bool
        case .double(let double): double
        case .strings(let strings): strings
        case .ints(let ints): ints
        case .none: String?.none
        case .other(let other): other.value
        }
    }

    /// The case for a value of one of the types above; `nil` for any other.
    @inline(__always)
    private static func recognise<T>(_ value: T) -> DeclaredValue? {
        let type = T.self
        if type == String.self {
            return .string(reinterpret(value, as: String.self))
        } else if type == Int.self {
            return .int(reinterpret(value, as: Int.self))
        } else if type == Bool.self {
            return .bool(reinterpret(value, as: Bool.self))
        } else if type == Double.self {
            return .double(reinterpret(value, as: Double.self))
        } else if type == [String].self {
            return .strings(reinterpret(value, as: [String].self))
        } else if type == [Int].self {
            return .ints(reinterpret(value, as: [Int].self))
        } else if type == String?.self {
            return reinterpret(value, as: String?.self).map(DeclaredValue.string) ?? DeclaredValue.none
        } else if type == Int?.self {
            return reinterpret(value, as: Int?.self).map(DeclaredValue.int) ?? DeclaredValue.none
        } else if type == Bool?.self {
            return reinterpret(value, as: Bool?.self).map(DeclaredValue.bool) ?? DeclaredValue.none
        } else if type == Double?.self {
            return reinterpret(value, as: Double?.self).map(DeclaredValue.double) ?? DeclaredValue.none
        } else if type == [String]?.self {
            return reinterpret(value, as: [String]?.self).map(DeclaredValue.strings) ?? DeclaredValue.none
        } else if type == [Int]?.self {
            return reinterpret(value, as: [Int]?.self).map(DeclaredValue.ints) ?? DeclaredValue.none
        }
        return nil
    }

    /// `value` as `U`; the caller has checked that `T` is `U`.
    @inline(__always)
    private static func reinterpret<T, U>(_ value: T, as _: U.Type) -> U {
        unsafeBitCast(value, to: U.self)
    }
}
