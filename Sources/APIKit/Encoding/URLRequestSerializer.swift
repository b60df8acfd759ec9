/// Writes a configuration's parameters into a `URLRequest`: the one serializer, whichever way
/// the configuration was read.
///
/// It walks the lists of a ``FieldPlan`` — headers, query items, body members, in declaration
/// order — and reads each field in place with its concrete type (``FieldKind``), or, for a
/// field that declared its parameters per request, writes what it declared
/// (``DeclaredParameters``, matched by ``DeclaredParameters/Declared/source``). A configuration
/// read with Mirror has no plan: everything it has was declared
/// (``FieldPlan/Item/everythingDeclared``).
///
/// It checks the declaration (method, header names and values, duplicate headers,
/// conflicting bodies, duplicate JSON keys, unencodable values) and throws a
/// ``BuildError`` naming the property at fault; it never sends anything. It writes the query
/// string and the bodies straight into byte buffers and assigns all header fields at once:
/// `URLComponents.queryItems` and one `setValue(_:forHTTPHeaderField:)` per header each cost
/// more than the rest of the encoding.
struct URLRequestSerializer {
    var base: URL
    var path: String
    var method: HTTPMethod
    /// The parser's media type, sent as `Accept` unless a header declares one.
    var acceptedContentType: String?
    /// The request's ``Request/encodingStrategy``, which each field's strategy overrides.
    var strategy: EncodingStrategy = .inherit

    /// The request for the configuration stored at `configuration`.
    ///
    /// - Parameters:
    ///   - configuration: Where the configuration is stored; read only through `plan`.
    ///   - plan: The configuration type's field plan; `nil` for a configuration read with Mirror.
    ///   - declared: What the declared fields (all of them without a plan) declared.
    /// - Throws: ``BuildError`` for an invalid declaration.
    func urlRequest(at configuration: UnsafeRawPointer, plan: FieldPlan?, declared: borrowing DeclaredParameters)
        throws(BuildError) -> URLRequest
    {
        guard HTTPSyntax.isToken(method.rawValue) else { throw .invalidMethod(method) }
        // The closure captures what it reads alone: capturing `self` copies the serializer, and
        // capturing `declared` all of its lists.
        let strategy = self.strategy
        let declaredQuery = declared.query
        let declaredPath = declared.path
        let path = self.path
        let url = try URLComposer.url(base: base, path: path) { (text: inout [UInt8]) throws(BuildError) in
            try Self.appendPath(path, at: configuration, plan: plan, declared: declaredPath, to: &text)
        } appendingQuery: { (text: inout [UInt8]) throws(BuildError) in
            // The writer takes the text over and gives it back: no copy.
            var writer = FormWriter(style: .query)
            swap(&writer.output, &text)
            defer { swap(&writer.output, &text) }
            if let plan {
                try Self.appendQuery(
                    plan.query, at: configuration, plan: plan, declared: declaredQuery, request: strategy, to: &writer)
            } else {
                try Self.appendQuery(
                    FieldPlan.Item.everythingDeclared, at: configuration, plan: nil, declared: declaredQuery,
                    request: strategy, to: &writer)
            }
        }
        guard let url else {
            var filled: [UInt8] = []
            try Self.appendPath(path, at: configuration, plan: plan, declared: declaredPath, to: &filled)
            throw .invalidURL(base: base.absoluteString, path: String(decoding: filled, as: UTF8.self))
        }
        let body = try self.body(at: configuration, plan: plan, declared: declared.body)
        var request = URLRequest(url: url)
        // `GET` is URLRequest's default, and setting a method costs a case-insensitive
        // comparison against every standard method.
        if method != .get { request.httpMethod = method.rawValue }
        request.allHTTPHeaderFields = try headerFields(
            at: configuration, plan: plan, declared: declared.headers, contentType: body?.contentType)
        switch body?.content {
        case .data(let data): request.httpBody = data
        case .segments(let segments): request.setRequestBody(segments)
        case nil: break
        }
        return request
    }

    // MARK: Path

    /// Appends the path, its placeholders filled with the values read in place or with what
    /// was declared (``FieldPlan/pathReadsInPlace``).
    private static func appendPath(
        _ path: String,
        at base: UnsafeRawPointer,
        plan: FieldPlan?,
        declared: [DeclaredParameters.Declared<PathParameter>],
        to text: inout [UInt8]
    ) throws(BuildError) {
        if let plan, plan.pathReadsInPlace {
            try PathTemplate.append(path, with: InPlacePathValues(base: base, plan: plan), to: &text)
        } else {
            try PathTemplate.append(path, with: declared, to: &text)
        }
    }

    // MARK: Query

    /// Appends the query items, percent-encoded and joined by `&`, in declaration order.
    private static func appendQuery(
        _ items: [FieldPlan.Item],
        at base: UnsafeRawPointer,
        plan: FieldPlan?,
        declared: [DeclaredParameters.Item],
        request: EncodingStrategy,
        to writer: inout FormWriter
    ) throws(BuildError) {
        var next = 0
        for item in items {
            let storage = base + item.offset
            switch item.kind {
            case .queryString: try appendItem(Query<String>.self, storage, plan, item, request, &writer)
            case .queryInt: try appendItem(Query<Int>.self, storage, plan, item, request, &writer)
            case .queryBool: try appendItem(Query<Bool>.self, storage, plan, item, request, &writer)
            case .queryStrings: try appendItem(Query<[String]>.self, storage, plan, item, request, &writer)
            case .queryOptionalString:
                try appendItem(Query<String?>.self, storage, plan, item, request, &writer)
            case .queryOptionalInt:
                try appendItem(Query<Int?>.self, storage, plan, item, request, &writer)
            case .queryOptionalBool:
                try appendItem(Query<Bool?>.self, storage, plan, item, request, &writer)
            case .header, .jsonString, .jsonInt, .jsonBool, .jsonDouble, .jsonOptionalString, .jsonOptionalInt,
                .jsonOptionalBool, .jsonOptionalDouble, .jsonOptionalStrings, .fieldString, .fieldInt, .fieldBool,
                .fieldOptionalString, .fieldOptionalInt, .pathString, .pathInt:
                // FieldPlan lists an item here only when its category is this list's, or declared
                preconditionFailure("a \(item.kind) item among the query items")
            case .declared:
                for index in item.declaredRange(in: declared, from: &next) {
                    guard let value = declared[index].parameter.value else {
                        writer.appendKeyOnly(declared[index].parameter.key)
                        continue
                    }
                    try writer.append(
                        value,
                        key: declared[index].parameter.key,
                        strategy: declared[index].parameter.strategy,
                        request: request,
                        field: declared[index].field
                    )
                }
            }
        }
    }

    /// Appends the item of one `@Query` or `@Field` stored at `storage` with the one writer of
    /// query and form values (``FormWriter``), specialised for its value type.
    @inline(__always)
    static func appendItem<Wrapper: KeyedWrapper>(
        _: Wrapper.Type,
        _ storage: UnsafeRawPointer,
        _ plan: FieldPlan?,
        _ item: FieldPlan.Item,
        _ request: EncodingStrategy,
        _ writer: inout FormWriter
    ) throws(BuildError) {
        // Borrowed in place: loading the wrapper would copy its key, value and strategy.
        let wrapper = storage.assumingMemoryBound(to: Wrapper.self)
        try writer.append(
            DeclaredValue(wrapper.pointee.wrappedValue),
            key: wrapper.pointee.key,
            plainKey: item.plainKey,
            strategy: wrapper.pointee.strategy,
            request: request,
            field: plan?.fields[item.field].name ?? ""
        )
    }

    // MARK: Headers

    /// The header fields, checked (``HeaderRules``), with `Content-Type` and `Accept` added
    /// unless declared.
    ///
    /// - Throws: ``BuildError/invalidHeaderName(_:field:)``, ``BuildError/framingHeader(_:source:)``,
    ///   ``BuildError/invalidHeaderValue(name:field:)`` or ``BuildError/duplicateHeader(_:fields:)``.
    private func headerFields(
        at base: UnsafeRawPointer,
        plan: FieldPlan?,
        declared: [DeclaredParameters.Declared<HeaderField>],
        contentType: String?
    ) throws(BuildError) -> [String: String] {
        var fields: [String: String]
        var declaresContentType = false
        var declaresAccept = false
        if let plan, !plan.declaresHeaders, plan.checkedHeaderNames?.match(at: base, plan.headers) == true {
            // The names are valid and distinct: only the values are left to check.
            fields = Dictionary(minimumCapacity: plan.headers.count + 2)
            for item in plan.headers {
                let header = (base + item.offset).assumingMemoryBound(to: Header.self)
                guard let value = header.pointee.wrappedValue else { continue }
                try HeaderRules.checkValue(value, name: header.pointee.key, field: plan.fields[item.field].name)
                switch item.declares {
                case .none: break
                case .contentType: declaresContentType = true
                case .accept: declaresAccept = true
                }
                fields[header.pointee.key] = value
            }
        } else {
            let present = Self.presentHeaders(at: base, plan: plan, declared: declared)
            let name = { (index: Int) in present[index].parameter.name }
            if plan?.checkedHeaderNames?.coversInOrder(count: present.count, key: name) == true {
                for index in present.indices {
                    try HeaderRules.checkValue(
                        present[index].parameter.value, name: name(index), field: present[index].field)
                }
            } else {
                try HeaderRules.check(
                    count: present.count,
                    name: name,
                    value: { present[$0].parameter.value },
                    field: { present[$0].field }
                )
            }
            fields = Dictionary(minimumCapacity: present.count + 2)
            for index in present.indices {
                if !declaresContentType { declaresContentType = HTTPSyntax.namesEqual(name(index), "Content-Type") }
                if !declaresAccept { declaresAccept = HTTPSyntax.namesEqual(name(index), "Accept") }
                fields[name(index)] = present[index].parameter.value
            }
        }
        if let contentType, !declaresContentType { fields["Content-Type"] = contentType }
        if let acceptedContentType, !declaresAccept { fields["Accept"] = acceptedContentType }
        return fields
    }

    /// The headers with a value, in declaration order: the `@Header` fields read in place and
    /// what the declared fields declared.
    private static func presentHeaders(
        at base: UnsafeRawPointer,
        plan: FieldPlan?,
        declared: [DeclaredParameters.Declared<HeaderField>]
    ) -> [DeclaredParameters.Declared<HeaderField>] {
        guard let plan else { return declared }
        var present: [DeclaredParameters.Declared<HeaderField>] = []
        present.reserveCapacity(plan.headers.count + declared.count)
        var next = 0
        for item in plan.headers {
            if item.kind == .header {
                let header = (base + item.offset).assumingMemoryBound(to: Header.self)
                guard let value = header.pointee.wrappedValue else { continue }
                present.append(
                    .init(
                        field: plan.fields[item.field].name,
                        parameter: HeaderField(name: header.pointee.key, value: value))
                )
                continue
            }
            present.append(contentsOf: declared[item.declaredRange(in: declared, from: &next)])
        }
        return present
    }
}
