/// A built-in wrapper: it declares its parameters into ``DeclaredParameters`` itself.
///
/// The public parameter protocols return arrays, one allocation per property per request; the
/// built-in wrappers append in place instead, and a `nil` query value is skipped at once. What
/// they declare is exactly what their public protocol conformances return. Both readings of a
/// configuration call it: Mirror for every built-in wrapper, a ``FieldPlan`` for those it does
/// not read in place (``FieldKind/declared``).
protocol DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String)

    /// For a wrapper that declares a JSON body member: where it keeps its key, so that the
    /// field plan checks the type's JSON keys once (``FieldPlan/checkedJSONKeys``).
    static var jsonKeyOffset: Int? { get }
}

extension DirectParameter {
    /// Declares the parameters of the value stored at `storage`.
    static func declare(at storage: UnsafeRawPointer, into parameters: inout DeclaredParameters, field: String) {
        // Borrowed in place: `load(as:)` would copy the wrapper, retaining its key and value.
        storage.assumingMemoryBound(to: Self.self).pointee.declare(into: &parameters, field: field)
    }

    static var jsonKeyOffset: Int? { nil }
}

extension Header: DirectParameter {
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

    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.appendMember(wrappedValue, key: key, encoding: .json, strategy: strategy, field: field)
    }
}

extension Field: DirectParameter {
    // A `nil` body field is still declared: it decides the kind of body the request has.
    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.appendMember(wrappedValue, key: key, encoding: .formURLEncoded, strategy: strategy, field: field)
    }
}

extension Part: DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.appendMember(wrappedValue, key: name, encoding: .multipart, strategy: strategy, field: field)
    }
}

extension FilePart: DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.appendMember(wrappedValue, key: name, encoding: .multipart, field: field)
    }
}

extension PathSegment: DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.path.append(.init(field: field, parameter: PathParameter(name: key, value: wrappedValue)))
    }
}
