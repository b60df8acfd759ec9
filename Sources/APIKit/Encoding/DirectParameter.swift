/// A built-in wrapper that adds its parameters to ``DeclaredParameters`` itself.
///
/// The public parameter protocols return arrays, one allocation per property per request; the
/// built-in wrappers append in place instead, and a `nil` query value is skipped at once. What they add is
/// exactly what their public protocol conformances return: the encoder tests build every
/// request both ways (``ParameterCollector/Reading``) and compare the bytes.
protocol DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String)

    /// For a wrapper whose value is an `Optional`: how to see that it is `nil` without copying
    /// the wrapper, and what a `nil` value still declares. Asked once per type, by ``FieldPlan``.
    static var nilCheck: NilCheck? { get }

    /// For a wrapper that declares a JSON body member: where it keeps its key, so that the
    /// field plan checks the type's JSON keys once (``FieldPlan/checkedJSONKeys``).
    static var jsonKeyOffset: Int? { get }
}

extension DirectParameter {
    /// Adds the parameters of the value stored at `storage`.
    static func declare(at storage: UnsafeRawPointer, into parameters: inout DeclaredParameters, field: String) {
        // Borrowed in place: `load(as:)` would copy the wrapper, retaining its key and value.
        storage.assumingMemoryBound(to: Self.self).pointee.declare(into: &parameters, field: field)
    }

    static var nilCheck: NilCheck? { nil }

    static var jsonKeyOffset: Int? { nil }

    /// The nil check of a wrapper holding a `Value` at `value`; `nil` when `Value` is not an
    /// `Optional`.
    ///
    /// - Parameters:
    ///   - strategy: Where the wrapper keeps its ``EncodingStrategy``, if it has one.
    ///   - followsStrategy: Whether the strategies may write a `nil` value (query and body values).
    ///   - bodyMember: For a body member, where its key is and which body it declares.
    fileprivate static func nilCheck<Value>(
        of _: Value.Type,
        at value: PartialKeyPath<Self>,
        strategy: PartialKeyPath<Self>? = nil,
        followsStrategy: Bool,
        bodyMember: (key: PartialKeyPath<Self>, kind: NilCheck.BodyKind)? = nil
    ) -> NilCheck? {
        guard let type = Value.self as? any OptionalProtocol.Type,
            let offset = MemoryLayout<Self>.offset(of: value)
        else { return nil }
        var declares = NilCheck.Declares.nothing
        if let bodyMember {
            guard let keyOffset = MemoryLayout<Self>.offset(of: bodyMember.key) else { return nil }
            declares = .bodyMember(keyOffset: keyOffset, kind: bodyMember.kind)
        }
        var nilsOffset: Int?
        if let strategy {
            guard let strategyOffset = MemoryLayout<Self>.offset(of: strategy),
                let nils = MemoryLayout<EncodingStrategy>.offset(of: \.nils)
            else { return nil }
            nilsOffset = strategyOffset + nils
        }
        return NilCheck(
            valueOffset: offset,
            valueType: type,
            nilsOffset: nilsOffset,
            followsStrategy: followsStrategy,
            declares: declares
        )
    }
}

/// Calls ``DirectParameter/declare(into:field:)`` on a built-in wrapper stored in memory.
///
/// Reached through its metatype, a generic wrapper such as `Query<Int>` runs unspecialised
/// code: every copy of its value and every check of its type goes through value witnesses
/// (~250 instructions a field). For the wrappers over the value types requests use most, the
/// call is made here with the concrete type, so the compiler specialises it; it is the same
/// method on the same value either way.
enum DirectDeclarer {
    case header
    case queryString, queryInt, queryBool, queryStrings, queryOptionalString, queryOptionalInt, queryOptionalBool
    case jsonString, jsonInt, jsonBool, jsonDouble
    case jsonOptionalString, jsonOptionalInt, jsonOptionalBool, jsonOptionalDouble, jsonOptionalStrings
    case fieldString, fieldInt, fieldBool, fieldOptionalString, fieldOptionalInt
    case pathString, pathInt
    case other(any DirectParameter.Type)

    init(_ type: any DirectParameter.Type) {
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
        default: self = .other(type)
        }
    }

    /// Adds the parameters of the wrapper stored at `storage`.
    @inline(__always)
    func declare(at storage: UnsafeRawPointer, into parameters: inout DeclaredParameters, field: String) {
        switch self {
        case .header: Self.declare(Header.self, at: storage, into: &parameters, field: field)
        case .queryString: Self.declare(Query<String>.self, at: storage, into: &parameters, field: field)
        case .queryInt: Self.declare(Query<Int>.self, at: storage, into: &parameters, field: field)
        case .queryBool: Self.declare(Query<Bool>.self, at: storage, into: &parameters, field: field)
        case .queryStrings: Self.declare(Query<[String]>.self, at: storage, into: &parameters, field: field)
        case .queryOptionalString: Self.declare(Query<String?>.self, at: storage, into: &parameters, field: field)
        case .queryOptionalInt: Self.declare(Query<Int?>.self, at: storage, into: &parameters, field: field)
        case .queryOptionalBool: Self.declare(Query<Bool?>.self, at: storage, into: &parameters, field: field)
        case .jsonString: Self.declare(JSON<String>.self, at: storage, into: &parameters, field: field)
        case .jsonInt: Self.declare(JSON<Int>.self, at: storage, into: &parameters, field: field)
        case .jsonBool: Self.declare(JSON<Bool>.self, at: storage, into: &parameters, field: field)
        case .jsonDouble: Self.declare(JSON<Double>.self, at: storage, into: &parameters, field: field)
        case .jsonOptionalString: Self.declare(JSON<String?>.self, at: storage, into: &parameters, field: field)
        case .jsonOptionalInt: Self.declare(JSON<Int?>.self, at: storage, into: &parameters, field: field)
        case .jsonOptionalBool: Self.declare(JSON<Bool?>.self, at: storage, into: &parameters, field: field)
        case .jsonOptionalDouble: Self.declare(JSON<Double?>.self, at: storage, into: &parameters, field: field)
        case .jsonOptionalStrings: Self.declare(JSON<[String]?>.self, at: storage, into: &parameters, field: field)
        case .fieldString: Self.declare(Field<String>.self, at: storage, into: &parameters, field: field)
        case .fieldInt: Self.declare(Field<Int>.self, at: storage, into: &parameters, field: field)
        case .fieldBool: Self.declare(Field<Bool>.self, at: storage, into: &parameters, field: field)
        case .fieldOptionalString: Self.declare(Field<String?>.self, at: storage, into: &parameters, field: field)
        case .fieldOptionalInt: Self.declare(Field<Int?>.self, at: storage, into: &parameters, field: field)
        case .pathString: Self.declare(PathSegment<String>.self, at: storage, into: &parameters, field: field)
        case .pathInt: Self.declare(PathSegment<Int>.self, at: storage, into: &parameters, field: field)
        case .other(let type): type.declare(at: storage, into: &parameters, field: field)
        }
    }

    @inline(__always)
    private static func declare<Wrapper: DirectParameter>(
        _: Wrapper.Type,
        at storage: UnsafeRawPointer,
        into parameters: inout DeclaredParameters,
        field: String
    ) {
        storage.assumingMemoryBound(to: Wrapper.self).pointee.declare(into: &parameters, field: field)
    }
}

/// Tells whether an `Optional` stored in memory is `nil`.
///
/// For the common value types the check is concrete code that reads the value's tag in place;
/// through the generic ``OptionalProtocol`` it would copy and destroy the value through its
/// value witnesses (~350 instructions).
enum NilProbe {
    case string, int, bool, double, strings, ints
    case other(any OptionalProtocol.Type)

    init(_ type: any OptionalProtocol.Type) {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String?.self): self = .string
        case ObjectIdentifier(Int?.self): self = .int
        case ObjectIdentifier(Bool?.self): self = .bool
        case ObjectIdentifier(Double?.self): self = .double
        case ObjectIdentifier([String]?.self): self = .strings
        case ObjectIdentifier([Int]?.self): self = .ints
        default: self = .other(type)
        }
    }

    @inline(__always)
    func isNone(at pointer: UnsafeRawPointer) -> Bool {
        switch self {
        case .string: pointer.assumingMemoryBound(to: String?.self).pointee == nil
        case .int: pointer.assumingMemoryBound(to: Int?.self).pointee == nil
        case .bool: pointer.assumingMemoryBound(to: Bool?.self).pointee == nil
        case .double: pointer.assumingMemoryBound(to: Double?.self).pointee == nil
        case .strings: pointer.assumingMemoryBound(to: [String]?.self).pointee == nil
        case .ints: pointer.assumingMemoryBound(to: [Int]?.self).pointee == nil
        case .other(let type): type.isNone(at: pointer)
        }
    }
}

/// Where a built-in wrapper keeps its `Optional` value, so that the field plan sees a `nil`
/// at a fixed offset — a few instructions — instead of copying the wrapper and declaring an
/// item that writes nothing. A request with many `nil` fields then costs what it would
/// without them.
///
/// What it lets the plan skip is exactly what ``DirectParameter/declare(into:field:)`` would
/// have declared to no effect; the encoder tests compare every request with the Mirror reading.
struct NilCheck {
    /// The kinds of body a built-in member wrapper declares. Not ``BodyEncoding`` itself,
    /// which can hold a content type string: a check that is copied for every field on every
    /// request must be plain bits.
    enum BodyKind {
        case json, form, multipart
    }

    /// What a `nil` value still declares when the strategies leave it out.
    enum Declares {
        /// Nothing (a header, a query dictionary or item).
        case nothing
        /// Its key and body kind: a body member decides what kind of body the request has, and
        /// takes part in the duplicate-key and conflicting-body checks, even when it is `nil`.
        case bodyMember(keyOffset: Int, kind: BodyKind)
    }

    let valueOffset: Int
    let valueType: NilProbe
    /// The offset of the wrapper's `strategy.nils`, for wrappers that carry a strategy.
    let nilsOffset: Int?
    /// Whether the value is seen by the strategies at all (query and body values), so that a
    /// request's `.nils(.empty)` or `.nils(.null)` makes it write something.
    let followsStrategy: Bool
    let declares: Declares

    /// Whether the value stored in the wrapper at `storage` is `nil`.
    @inline(__always)
    func isNil(in storage: UnsafeRawPointer) -> Bool {
        valueType.isNone(at: storage + valueOffset)
    }

    init(
        valueOffset: Int,
        valueType: any OptionalProtocol.Type,
        nilsOffset: Int?,
        followsStrategy: Bool,
        declares: Declares
    ) {
        self.valueOffset = valueOffset
        self.valueType = NilProbe(valueType)
        self.nilsOffset = nilsOffset
        self.followsStrategy = followsStrategy
        self.declares = declares
    }

    /// Whether a `nil` value writes nothing: its nil strategy (``ResolvedStrategy/nils(field:request:)``)
    /// omits it.
    @inline(__always)
    func omitsNil(in storage: UnsafeRawPointer, requestNils: NilEncoding?) -> Bool {
        guard followsStrategy else { return true }
        let field = nilsOffset.flatMap { storage.load(fromByteOffset: $0, as: NilEncoding?.self) }
        return ResolvedStrategy.nils(field: field, request: requestNils) == .omit
    }

    /// Declares what a `nil` value left out by the strategies still declares.
    func declareOmitted(in storage: UnsafeRawPointer, into parameters: inout DeclaredParameters, field: String) {
        guard case .bodyMember(let keyOffset, let kind) = declares else { return }
        let encoding: BodyEncoding =
            switch kind {
            case .json: .json
            case .form: .formURLEncoded
            case .multipart: .multipart
            }
        let key = storage.load(fromByteOffset: keyOffset, as: String.self)
        parameters.body.append(
            .init(field: field, parameter: .init(key: key, value: .none, encoding: encoding), isOmitted: true)
        )
    }
}

extension Header: DirectParameter {
    static var nilCheck: NilCheck? {
        nilCheck(of: String?.self, at: \Self.wrappedValue, followsStrategy: false)
    }

    func declare(into parameters: inout DeclaredParameters, field: String) {
        guard let value = wrappedValue else { return }
        parameters.headers.append(.init(field: field, parameter: HeaderField(name: key, value: value)))
    }
}

extension HeaderDict: DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String) {
        for item in wrappedValue.sorted(by: { $0.key < $1.key }) {
            parameters.headers.append(.init(field: field, parameter: HeaderField(name: item.key, value: item.value)))
        }
    }
}

extension Query: DirectParameter {
    static var nilCheck: NilCheck? {
        nilCheck(of: Value.self, at: \Self.wrappedValue, strategy: \Self.strategy, followsStrategy: true)
    }

    // A `nil` value is skipped at once unless its strategy, or the request's, writes it (`key=`).
    func declare(into parameters: inout DeclaredParameters, field: String) {
        let value = DeclaredValue(wrappedValue)
        if case .none = value, ResolvedStrategy.nils(field: strategy.nils, request: parameters.requestNils) == .omit {
            return
        }
        parameters.query.append(.init(field: field, parameter: .init(key: key, value: value, strategy: strategy)))
    }
}

extension QueryDict: DirectParameter {
    static var nilCheck: NilCheck? {
        nilCheck(of: [String: String]?.self, at: \Self.wrappedValue, followsStrategy: false)
    }

    func declare(into parameters: inout DeclaredParameters, field: String) {
        guard let items = wrappedValue else { return }
        for item in items.sorted(by: { $0.key < $1.key }) {
            parameters.query.append(.init(field: field, parameter: .init(key: item.key, value: .string(item.value))))
        }
    }
}

extension KeyQuery: DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String) {
        guard wrappedValue else { return }
        parameters.query.append(.init(field: field, parameter: .init(key: key, value: nil)))
    }
}

extension JSON: DirectParameter {
    static var jsonKeyOffset: Int? { MemoryLayout<Self>.offset(of: \Self.key) }

    static var nilCheck: NilCheck? {
        nilCheck(
            of: Value.self,
            at: \Self.wrappedValue,
            strategy: \Self.strategy,
            followsStrategy: true,
            bodyMember: (\Self.key, .json)
        )
    }

    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.body.append(
            .init(
                field: field,
                parameter: .init(key: key, value: DeclaredValue(wrappedValue), encoding: .json, strategy: strategy)
            )
        )
    }
}

extension Field: DirectParameter {
    static var nilCheck: NilCheck? {
        nilCheck(
            of: Value.self,
            at: \Self.wrappedValue,
            strategy: \Self.strategy,
            followsStrategy: true,
            bodyMember: (\Self.key, .form)
        )
    }

    // A `nil` body field is still declared: it decides the kind of body the request has.
    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.body.append(
            .init(
                field: field,
                parameter: .init(
                    key: key, value: DeclaredValue(wrappedValue), encoding: .formURLEncoded, strategy: strategy)
            )
        )
    }
}

extension Part: DirectParameter {
    static var nilCheck: NilCheck? {
        nilCheck(
            of: Value.self,
            at: \Self.wrappedValue,
            strategy: \Self.strategy,
            followsStrategy: true,
            bodyMember: (\Self.name, .multipart)
        )
    }

    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.body.append(
            .init(
                field: field,
                parameter: .init(
                    key: name, value: DeclaredValue(wrappedValue), encoding: .multipart, strategy: strategy)
            )
        )
    }
}

extension FilePart: DirectParameter {
    static var nilCheck: NilCheck? {
        // No strategy of its own; the request's nil strategy still applies to its value.
        nilCheck(of: Value.self, at: \Self.wrappedValue, followsStrategy: true, bodyMember: (\Self.name, .multipart))
    }

    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.body.append(
            .init(field: field, parameter: .init(key: name, value: DeclaredValue(wrappedValue), encoding: .multipart))
        )
    }
}

extension PathSegment: DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.path.append(.init(field: field, parameter: PathParameter(name: key, value: wrappedValue)))
    }
}
