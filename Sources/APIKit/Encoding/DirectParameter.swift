/// A built-in wrapper that adds its parameters to ``DeclaredParameters`` itself.
///
/// The public parameter protocols return arrays, one allocation per property per request; the
/// built-in wrappers append in place instead, and a `nil` query value is skipped at once. What they add is
/// exactly what their public protocol conformances return: the encoder tests build every
/// request both ways (``ParameterCollector/Reading``) and compare the bytes.
protocol DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String)
}

extension DirectParameter {
    /// Adds the parameters of the value stored at `storage`.
    static func declare(at storage: UnsafeRawPointer, into parameters: inout DeclaredParameters, field: String) {
        storage.load(as: Self.self).declare(into: &parameters, field: field)
    }
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
        if case .none = KnownScalar(wrappedValue), !(strategy.nils.map { $0 != .omit } ?? parameters.keepsNilQueryValues) {
            return
        }
        parameters.query.append(
            .init(field: field, parameter: QueryParameter(key: key, value: wrappedValue, strategy: strategy))
        )
    }
}

extension QueryDict: DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String) {
        guard let items = wrappedValue else { return }
        for item in items.sorted(by: { $0.key < $1.key }) {
            parameters.query.append(.init(field: field, parameter: QueryParameter(key: item.key, value: item.value)))
        }
    }
}

extension KeyQuery: DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String) {
        guard wrappedValue else { return }
        parameters.query.append(.init(field: field, parameter: .keyOnly(key)))
    }
}

extension JSON: DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.body.append(
            .init(field: field, parameter: BodyParameter(key: key, value: wrappedValue, encoding: .json, strategy: strategy))
        )
    }
}

extension Field: DirectParameter {
    // A `nil` body field is still declared: it decides the kind of body the request has.
    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.body.append(
            .init(
                field: field,
                parameter: BodyParameter(key: key, value: wrappedValue, encoding: .formURLEncoded, strategy: strategy)
            )
        )
    }
}

extension Part: DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.body.append(
            .init(
                field: field,
                parameter: BodyParameter(key: name, value: wrappedValue, encoding: .multipart, strategy: strategy)
            )
        )
    }
}

extension FilePart: DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.body.append(
            .init(field: field, parameter: BodyParameter(key: name, value: wrappedValue, encoding: .multipart))
        )
    }
}

extension PathSegment: DirectParameter {
    func declare(into parameters: inout DeclaredParameters, field: String) {
        parameters.path.append(.init(field: field, parameter: PathParameter(name: key, value: wrappedValue)))
    }
}
