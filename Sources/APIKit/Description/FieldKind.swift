/// How the serializer reads one field of a configuration: in place, with the concrete type of
/// one of the wrappers requests use most, or through the parameters it declares.
///
/// Reached through its metatype, a generic wrapper such as `Query<Int>` runs unspecialised
/// code: every copy of its value and every check of its type goes through value witnesses
/// (`Benchmarks/README.md`, "Instruction counts"). For the kinds below the serializer switches
/// to code written for the concrete type, which the compiler specialises, and reads key, value
/// and strategy where the wrapper stores them. Every other field — users' wrappers,
/// `@HeaderDict`, `@Part`, a `@Query` over a `Date` — declares its parameters per request into
/// ``DeclaredParameters``, and the same serializer writes them in their place among the others.
///
/// Made once per field type by ``FieldPlan``; plain bits, so a plan's items copy for free.
enum FieldKind: UInt8, Sendable, CaseIterable {
    case header
    case queryString, queryInt, queryBool, queryStrings, queryOptionalString, queryOptionalInt, queryOptionalBool
    case jsonString, jsonInt, jsonBool, jsonDouble
    case jsonOptionalString, jsonOptionalInt, jsonOptionalBool, jsonOptionalDouble, jsonOptionalStrings
    case fieldString, fieldInt, fieldBool, fieldOptionalString, fieldOptionalInt
    /// A `@PathSegment` over a `String` or an `Int`: read in place when every path value of
    /// the configuration is one of these (``FieldPlan/pathReadsInPlace``), else declared with
    /// code for its concrete type.
    case pathString, pathInt
    /// Any other parameter type: declared per request.
    case declared

    /// Where the serializer reads a field of this kind.
    enum Category {
        case header, query, jsonMember, formField, pathSegment, declared
    }

    init(_ type: Any.Type) {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Header.self): self = .header
        case ObjectIdentifier(Query<String>.self): self = .queryString
        case ObjectIdentifier(Query<Int>.self): self = .queryInt
        case ObjectIdentifier(Query<Bool>.self): self = .queryBool
        case ObjectIdentifier(Query<[String]>.self): self = .queryStrings
        case ObjectIdentifier(Query<String?>.self): self = .queryOptionalString
        case ObjectIdentifier(Query<Int?>.self): self = .queryOptionalInt
        case ObjectIdentifier(Query<Bool?>.self): self = .queryOptionalBool
        case ObjectIdentifier(JSON<String>.self): self = .jsonString
        case ObjectIdentifier(JSON<Int>.self): self = .jsonInt
        case ObjectIdentifier(JSON<Bool>.self): self = .jsonBool
        case ObjectIdentifier(JSON<Double>.self): self = .jsonDouble
        case ObjectIdentifier(JSON<String?>.self): self = .jsonOptionalString
        case ObjectIdentifier(JSON<Int?>.self): self = .jsonOptionalInt
        case ObjectIdentifier(JSON<Bool?>.self): self = .jsonOptionalBool
        case ObjectIdentifier(JSON<Double?>.self): self = .jsonOptionalDouble
        case ObjectIdentifier(JSON<[String]?>.self): self = .jsonOptionalStrings
        case ObjectIdentifier(Field<String>.self): self = .fieldString
        case ObjectIdentifier(Field<Int>.self): self = .fieldInt
        case ObjectIdentifier(Field<Bool>.self): self = .fieldBool
        case ObjectIdentifier(Field<String?>.self): self = .fieldOptionalString
        case ObjectIdentifier(Field<Int?>.self): self = .fieldOptionalInt
        case ObjectIdentifier(PathSegment<String>.self): self = .pathString
        case ObjectIdentifier(PathSegment<Int>.self): self = .pathInt
        default: self = .declared
        }
    }

    /// The body a member of this kind is part of; `nil` for a kind that is no body member.
    var bodyEncoding: BodyEncoding? {
        switch category {
        case .jsonMember: .json
        case .formField: .formURLEncoded
        case .header, .query, .pathSegment, .declared: nil
        }
    }

    var category: Category {
        switch self {
        case .header: .header
        case .queryString, .queryInt, .queryBool, .queryStrings, .queryOptionalString, .queryOptionalInt,
            .queryOptionalBool:
            .query
        case .jsonString, .jsonInt, .jsonBool, .jsonDouble, .jsonOptionalString, .jsonOptionalInt, .jsonOptionalBool,
            .jsonOptionalDouble, .jsonOptionalStrings:
            .jsonMember
        case .fieldString, .fieldInt, .fieldBool, .fieldOptionalString, .fieldOptionalInt: .formField
        case .pathString, .pathInt: .pathSegment
        case .declared: .declared
        }
    }

    /// How a field of `type` is read: its in-place kind, with where the wrapper keeps its key,
    /// when that can be found; else ``declared`` — through what it declares, as the Mirror walk
    /// reads it — never at a guessed offset.
    ///
    /// - Parameter type: The field's type.
    /// - Returns: The kind, and the key's offset from the wrapper's start (`nil` for
    ///   ``declared``).
    static func reading(_ type: Any.Type) -> (kind: FieldKind, keyOffset: Int?) {
        reading(type, as: FieldKind(type))
    }

    /// ``reading(_:)`` for a type already known to be of `kind`.
    static func reading(_ type: Any.Type, as kind: FieldKind) -> (kind: FieldKind, keyOffset: Int?) {
        let keyOffset: Int?
        switch kind.category {
        case .header: keyOffset = MemoryLayout<Header>.offset(of: \.key)
        case .pathSegment:
            keyOffset =
                kind == .pathInt
                ? MemoryLayout<PathSegment<Int>>.offset(of: \.key) : MemoryLayout<PathSegment<String>>.offset(of: \.key)
        case .query, .jsonMember, .formField: keyOffset = (type as? any KeyedWrapper.Type)?.keyOffset
        case .declared: return (.declared, nil)
        }
        guard let keyOffset else { return (.declared, nil) }
        return (kind, keyOffset)
    }
}
