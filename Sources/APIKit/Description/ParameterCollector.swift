/// Collects the parameters a configuration declares, in declaration order.
///
/// The rules, which both ways of reading below follow and `ParameterCollectorTests` pins:
/// - wrapper storage shows up as `_name`; the one leading `_` is stripped to name the field;
/// - a stored property counts when its type conforms to ``HeaderProtocol``, ``QueryProtocol``,
///   ``BodyProtocol`` or ``PathProtocol`` (one type may conform to several);
/// - every other property is ignored — among them properties of `Optional` type, which
///   includes `lazy` storage; computed properties are not stored at all;
/// - for a class, superclass properties come first, as declared;
/// - a property that is itself a ``RequestConfiguration`` contributes its own parameters, in
///   place, named `outer.inner` in errors.
///
/// Mirror is the reference. A struct is read through its cached ``FieldPlan`` instead, which
/// finds the same properties once per type; the encoder tests build every request both ways
/// and require identical results.
enum ParameterCollector {
    /// How the configuration's properties are read.
    enum Reading {
        /// A cached ``FieldPlan`` where the type allows one, else Mirror.
        case automatic
        /// Always Mirror: the reference the plan must agree with.
        case mirror
    }

    /// Everything the configuration declares, every field declaring its parameters: what the
    /// serializer writes, as tests see it.
    static func collect<Configuration>(from configuration: Configuration, reading: Reading = .automatic)
        -> DeclaredParameters
    {
        var parameters = DeclaredParameters()
        if reading == .automatic, let plan = FieldPlan.plan(for: configuration) {
            withUnsafeBytes(of: configuration) { bytes in
                guard let base = bytes.baseAddress else { return }
                declare(plan.fields.indices, of: plan, at: base, into: &parameters)
            }
        } else {
            collectWithMirror(from: configuration, into: &parameters)
        }
        return parameters
    }

    /// Reads the configuration with Mirror: every parameter property declares its parameters.
    static func collectWithMirror<Configuration>(
        from configuration: Configuration,
        into parameters: inout DeclaredParameters
    ) {
        var visited: Set<ObjectIdentifier> = []
        if type(of: configuration as Any) is AnyClass {
            visited.insert(ObjectIdentifier(configuration as AnyObject))
        }
        collect(Mirror(reflecting: configuration), prefix: "", visited: &visited, into: &parameters)
    }

    /// The property name for a storage label: `_token` → `token`.
    static func fieldName(fromLabel label: String) -> String {
        label.hasPrefix("_") ? String(label.dropFirst()) : label
    }

    // MARK: Field plan

    /// Declares the parameters of the plan's fields at `indices`, of the configuration stored at
    /// `base`, each marked with its field's index (``DeclaredParameters/Declared/source``).
    static func declare(
        _ indices: some Sequence<Int>,
        of plan: FieldPlan,
        at base: UnsafeRawPointer,
        into parameters: inout DeclaredParameters
    ) {
        // Fields are read through a pointer: reading `fields[index]` may copy the whole field
        // (its name retained and released) to look at one member.
        plan.fields.withUnsafeBufferPointer { fields in
            for index in indices {
                let field = fields.baseAddress! + index
                declare(field, source: index, at: base + field.pointee.offset, into: &parameters)
            }
        }
    }

    /// Declares the parameters of one field through the arrays of the public protocols it
    /// conforms to: a user's wrapper, and a built-in one the serializer does not read in place.
    @inline(__always)
    private static func declare(
        _ field: UnsafePointer<FieldPlan.Field>,
        source: Int,
        at storage: UnsafeRawPointer,
        into parameters: inout DeclaredParameters
    ) {
        let name = field.pointee.name
        if let header = field.pointee.header {
            parameters.add(load(header, at: storage).headerFields, from: name, source: source)
        }
        if let query = field.pointee.query {
            parameters.add(load(query, at: storage).queryParameters, from: name, source: source)
        }
        if let body = field.pointee.body {
            parameters.add(load(body, at: storage).bodyParameters, from: name, source: source)
        }
        if let path = field.pointee.path {
            parameters.add(load(path, at: storage).pathParameters, from: name, source: source)
        }
    }

    /// The value of type `Value` stored at `storage`; given a protocol's metatype, such as
    /// `any QueryProtocol.Type`, it opens it and returns the value as that protocol.
    private static func load<Value>(_: Value.Type, at storage: UnsafeRawPointer) -> Value {
        storage.load(as: Value.self)
    }

    // MARK: Mirror

    /// - Parameters:
    ///   - prefix: `outer.` for the properties of a nested configuration.
    ///   - visited: The class instances being read, outermost first, so that a configuration
    ///     that refers back to one of them ends the walk instead of recursing forever.
    private static func collect(
        _ mirror: Mirror,
        prefix: String,
        visited: inout Set<ObjectIdentifier>,
        into parameters: inout DeclaredParameters
    ) {
        if let superclassMirror = mirror.superclassMirror {
            collect(superclassMirror, prefix: prefix, visited: &visited, into: &parameters)
        }
        for (index, child) in mirror.children.enumerated() {
            let value = child.value
            // The casts below would see through an Optional; its type does not conform.
            if value is any OptionalProtocol { continue }
            let field = prefix + fieldName(fromLabel: child.label ?? "#\(index)")
            // A type may conform to several of the protocols: each adds its own.
            let header = value as? any HeaderProtocol
            let query = value as? any QueryProtocol
            let body = value as? any BodyProtocol
            let path = value as? any PathProtocol
            if let header { parameters.add(header.headerFields, from: field) }
            if let query { parameters.add(query.queryParameters, from: field) }
            if let body { parameters.add(body.bodyParameters, from: field) }
            if let path { parameters.add(path.pathParameters, from: field) }
            let isParameter = header != nil || query != nil || body != nil || path != nil
            if !isParameter, value is any RequestConfiguration {
                guard type(of: value) is AnyClass else {
                    collect(Mirror(reflecting: value), prefix: field + ".", visited: &visited, into: &parameters)
                    continue
                }
                // An instance that is already being read refers back to itself: stop the cycle.
                // The same instance under two properties is read twice, as two structs would be.
                let instance = ObjectIdentifier(value as AnyObject)
                guard visited.insert(instance).inserted else { continue }
                collect(Mirror(reflecting: value), prefix: field + ".", visited: &visited, into: &parameters)
                visited.remove(instance)
            }
        }
    }
}
