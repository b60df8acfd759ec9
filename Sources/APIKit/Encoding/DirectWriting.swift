/// How the serializer writes a request straight from a configuration's memory, for a field
/// plan whose every field is a `@Header`, or a `@Query` or `@JSON` over one of the common
/// value types: made once per type with its ``FieldPlan``.
///
/// The general path first copies every declared item — field name, key, value, strategy —
/// into ``DeclaredParameters``, then reads it back; here each value is read in place with its
/// concrete type and written by the same writers (``FormWriter``, ``JSONBodyWriter``,
/// ``HeaderRules``) at once. What is written, and every check with its error, is the same:
/// the encoder tests build each request with Mirror too and compare bytes and errors.
///
/// Some verdicts depend only on the declaration and are decided here once: such a request
/// has no path parameters, and its body, if it has any `@JSON` field, is a JSON object — a
/// `nil` member still makes one (`{}`) — so no body kinds can conflict. The plan's verdicts on
/// the keys — header names valid and distinct, JSON keys distinct (``FieldPlan/checkedHeaderNames``,
/// ``FieldPlan/checkedJSONKeys``) — hold for every request whose keys are the same strings
/// (``CheckedKeys``): a `nil` field then costs a load and a comparison.
///
/// Immutable once made, and shared like its plan: a class, so that handing it out retains
/// one object rather than each of its arrays.
final class DirectWriting: Sendable {
    /// A field of the plan: where its wrapper is stored and which one it is.
    struct Item {
        var kind: Kind
        var offset: Int
        /// Its index in ``FieldPlan/fields``, to name the property in an error.
        var field: Int
        /// Where the wrapper keeps its key, from `offset`.
        var keyOffset: Int
        /// For a header whose name is checked (``DirectWriting/checkedHeaderNames``): whether
        /// it declares `Content-Type` or `Accept`, which the request then does not add.
        var declares = ImpliedHeader.none
    }

    /// The headers a request adds unless it declares them.
    enum ImpliedHeader {
        case none, contentType, accept
    }

    /// The wrapper types written directly: the ones requests use most.
    enum Kind {
        case header
        case queryString, queryInt, queryBool, queryStrings, queryOptionalString, queryOptionalInt, queryOptionalBool
        case jsonString, jsonInt, jsonBool, jsonDouble
        case jsonOptionalString, jsonOptionalInt, jsonOptionalBool, jsonOptionalDouble, jsonOptionalStrings
    }

    let headers: [Item]
    let query: [Item]
    let json: [Item]
    /// The plan's ``FieldPlan/checkedHeaderNames``: the same headers, in the same order.
    let checkedHeaderNames: CheckedKeys?
    /// The plan's ``FieldPlan/checkedJSONKeys``: the same members, in the same order.
    let checkedJSONKeys: CheckedKeys?

    /// `nil` when a field is of any other type: the request then goes through
    /// ``DeclaredParameters``.
    ///
    /// - Parameters:
    ///   - fields: The plan's fields.
    ///   - checkedHeaderNames: The plan's checked header names.
    ///   - checkedJSONKeys: The plan's checked JSON keys.
    init?(fields: [FieldPlan.Field], checkedHeaderNames: CheckedKeys?, checkedJSONKeys: CheckedKeys?) {
        var headers: [Item] = []
        var query: [Item] = []
        var json: [Item] = []
        for (index, field) in fields.enumerated() {
            guard let declarer = field.declarer else { return nil }
            let item = { (kind: Kind) in Item(kind: kind, offset: field.offset, field: index, keyOffset: 0) }
            switch declarer {
            case .header: headers.append(item(.header))
            case .queryString: query.append(item(.queryString))
            case .queryInt: query.append(item(.queryInt))
            case .queryBool: query.append(item(.queryBool))
            case .queryStrings: query.append(item(.queryStrings))
            case .queryOptionalString: query.append(item(.queryOptionalString))
            case .queryOptionalInt: query.append(item(.queryOptionalInt))
            case .queryOptionalBool: query.append(item(.queryOptionalBool))
            case .jsonString: json.append(item(.jsonString))
            case .jsonInt: json.append(item(.jsonInt))
            case .jsonBool: json.append(item(.jsonBool))
            case .jsonDouble: json.append(item(.jsonDouble))
            case .jsonOptionalString: json.append(item(.jsonOptionalString))
            case .jsonOptionalInt: json.append(item(.jsonOptionalInt))
            case .jsonOptionalBool: json.append(item(.jsonOptionalBool))
            case .jsonOptionalDouble: json.append(item(.jsonOptionalDouble))
            case .jsonOptionalStrings: json.append(item(.jsonOptionalStrings))
            // Form fields and path values take the general path, specialised there by the declarer.
            case .fieldString, .fieldInt, .fieldBool, .fieldOptionalString, .fieldOptionalInt, .pathString, .pathInt,
                .other:
                return nil
            }
        }
        // Query items read their keys with their concrete types.
        for index in json.indices {
            guard let offset = fields[json[index].field].direct?.jsonKeyOffset else { return nil }
            json[index].keyOffset = offset
        }
        guard let headerKeyOffset = Self.keyOffset(Header.self, \.key) else { return nil }
        for index in headers.indices {
            headers[index].keyOffset = headerKeyOffset
        }
        if let names = checkedHeaderNames?.keys {
            for index in headers.indices {
                if HTTPSyntax.namesEqual(names[index], "Content-Type") { headers[index].declares = .contentType }
                if HTTPSyntax.namesEqual(names[index], "Accept") { headers[index].declares = .accept }
            }
        }
        self.checkedHeaderNames = checkedHeaderNames
        self.checkedJSONKeys = checkedJSONKeys
        self.headers = headers
        self.query = query
        self.json = json
    }

    // MARK: Query

    /// Appends the query items of the configuration stored at `base`, in declaration order.
    ///
    /// - Parameter request: The request's strategy, which each field's overrides.
    func appendQuery(
        at base: UnsafeRawPointer,
        plan: FieldPlan,
        request: EncodingStrategy,
        to writer: inout FormWriter
    ) throws(BuildError) {
        for item in query {
            let storage = base + item.offset
            switch item.kind {
            case .queryString: try Self.appendQueryItem(Query<String>.self, storage, plan, item.field, request, &writer)
            case .queryInt: try Self.appendQueryItem(Query<Int>.self, storage, plan, item.field, request, &writer)
            case .queryBool: try Self.appendQueryItem(Query<Bool>.self, storage, plan, item.field, request, &writer)
            case .queryStrings:
                try Self.appendQueryItem(Query<[String]>.self, storage, plan, item.field, request, &writer)
            case .queryOptionalString:
                try Self.appendQueryItem(Query<String?>.self, storage, plan, item.field, request, &writer)
            case .queryOptionalInt:
                try Self.appendQueryItem(Query<Int?>.self, storage, plan, item.field, request, &writer)
            case .queryOptionalBool:
                try Self.appendQueryItem(Query<Bool?>.self, storage, plan, item.field, request, &writer)
            default: break
            }
        }
    }

    /// Appends the items of one `@Query` stored at `storage` with the one writer of query
    /// values (``FormWriter``), specialised for its value type.
    @inline(__always)
    private static func appendQueryItem<Value>(
        _: Query<Value>.Type,
        _ storage: UnsafeRawPointer,
        _ plan: FieldPlan,
        _ field: Int,
        _ request: EncodingStrategy,
        _ writer: inout FormWriter
    ) throws(BuildError) {
        // Borrowed in place: loading the wrapper would copy its key, value and strategy.
        let wrapper = storage.assumingMemoryBound(to: Query<Value>.self)
        try writer.append(
            DeclaredValue(wrapper.pointee.wrappedValue),
            key: wrapper.pointee.key,
            strategy: wrapper.pointee.strategy,
            request: request,
            field: plan.fields[field].name
        )
    }

    // MARK: Headers

    /// The header fields of the configuration stored at `base`, checked as
    /// ``URLRequestSerializer`` checks declared headers, with the implied ones added.
    ///
    /// - Parameters:
    ///   - fields: The plan's fields, to name the property in an error.
    ///   - contentType: The body's media type, sent unless a header declares one.
    ///   - accept: The parser's media type, sent unless a header declares one.
    /// - Throws: ``BuildError/invalidHeaderName(_:field:)``, ``BuildError/framingHeader(_:source:)``,
    ///   ``BuildError/invalidHeaderValue(name:field:)`` or ``BuildError/duplicateHeader(_:fields:)``.
    func headerFields(
        at base: UnsafeRawPointer,
        fields: [FieldPlan.Field],
        contentType: String?,
        accept: String?
    ) throws(BuildError) -> [String: String] {
        var result: [String: String] = Dictionary(minimumCapacity: headers.count + 2)
        var declaresContentType = false
        var declaresAccept = false
        if let checkedHeaderNames, checkedHeaderNames.match(at: base, headers) {
            // The names are valid and distinct: only the values are left to check.
            for index in headers.indices {
                let header = (base + headers[index].offset).assumingMemoryBound(to: Header.self)
                guard let value = header.pointee.wrappedValue else { continue }
                try HeaderRules.checkValue(value, name: header.pointee.key, field: fields[headers[index].field].name)
                switch headers[index].declares {
                case .none: break
                case .contentType: declaresContentType = true
                case .accept: declaresAccept = true
                }
                result[header.pointee.key] = value
            }
        } else {
            // The headers with a value, checked as declared ones are.
            let present = headers.filter {
                (base + $0.offset).assumingMemoryBound(to: Header.self).pointee.wrappedValue != nil
            }
            let header = { (index: Int) in (base + present[index].offset).assumingMemoryBound(to: Header.self) }
            try HeaderRules.check(
                count: present.count,
                name: { header($0).pointee.key },
                value: { header($0).pointee.wrappedValue ?? "" },
                field: { fields[present[$0].field].name }
            )
            for index in present.indices {
                let name = header(index).pointee.key
                if !declaresContentType { declaresContentType = HTTPSyntax.namesEqual(name, "Content-Type") }
                if !declaresAccept { declaresAccept = HTTPSyntax.namesEqual(name, "Accept") }
                result[name] = header(index).pointee.wrappedValue
            }
        }
        if let contentType, !declaresContentType { result["Content-Type"] = contentType }
        if let accept, !declaresAccept { result["Accept"] = accept }
        return result
    }

    // MARK: Body

    /// The JSON object of the configuration's `@JSON` fields, in declaration order.
    ///
    /// - Parameters:
    ///   - fields: The plan's fields, to name the property in an error.
    ///   - request: The request's strategy, which each field's overrides.
    /// - Throws: ``BuildError/duplicateBodyKey(_:fields:)`` when two members, `nil` ones
    ///   included, have the same key; ``BuildError/valueEncodingFailed(field:key:underlying:)``
    ///   for a non-finite double.
    func jsonBody(at base: UnsafeRawPointer, fields: [FieldPlan.Field], request: EncodingStrategy)
        throws(BuildError) -> Data
    {
        if checkedJSONKeys?.match(at: base, json) != true,
            let (earlier, later) = DuplicateKeys.first(count: json.count, key: { Self.key(of: json[$0], at: base) })
        {
            throw .duplicateBodyKey(
                Self.key(of: json[later], at: base),
                fields: [fields[json[earlier].field].name, fields[json[later].field].name]
            )
        }
        var body: [UInt8] = [UInt8(ascii: "{")]
        body.reserveCapacity(64 * json.count + 2)
        var isFirst = true
        for item in json {
            let storage = base + item.offset
            do {
                switch item.kind {
                case .jsonString: try Self.appendMember(JSON<String>.self, at: storage, request, &isFirst, &body)
                case .jsonInt: try Self.appendMember(JSON<Int>.self, at: storage, request, &isFirst, &body)
                case .jsonBool: try Self.appendMember(JSON<Bool>.self, at: storage, request, &isFirst, &body)
                case .jsonDouble: try Self.appendMember(JSON<Double>.self, at: storage, request, &isFirst, &body)
                case .jsonOptionalString:
                    try Self.appendMember(JSON<String?>.self, at: storage, request, &isFirst, &body)
                case .jsonOptionalInt: try Self.appendMember(JSON<Int?>.self, at: storage, request, &isFirst, &body)
                case .jsonOptionalBool: try Self.appendMember(JSON<Bool?>.self, at: storage, request, &isFirst, &body)
                case .jsonOptionalDouble:
                    try Self.appendMember(JSON<Double?>.self, at: storage, request, &isFirst, &body)
                case .jsonOptionalStrings:
                    try Self.appendMember(JSON<[String]?>.self, at: storage, request, &isFirst, &body)
                default: break
                }
            } catch {
                throw .valueEncodingFailed(
                    field: fields[item.field].name, key: Self.key(of: item, at: base), underlying: error)
            }
        }
        body.append(UInt8(ascii: "}"))
        return Data(body)
    }

    @inline(__always)
    private static func appendMember<Value>(
        _: JSON<Value>.Type,
        at storage: UnsafeRawPointer,
        _ request: EncodingStrategy,
        _ isFirst: inout Bool,
        _ body: inout [UInt8]
    ) throws {
        let wrapper = storage.assumingMemoryBound(to: JSON<Value>.self)
        try JSONBodyWriter.appendMember(
            DeclaredValue(wrapper.pointee.wrappedValue),
            key: wrapper.pointee.key,
            field: wrapper.pointee.strategy,
            request: request,
            isFirst: &isFirst,
            to: &body
        )
    }

    @inline(__always)
    private static func key(of item: Item, at base: UnsafeRawPointer) -> String {
        (base + item.offset + item.keyOffset).assumingMemoryBound(to: String.self).pointee
    }

    /// The offset of `key` in a wrapper of type `Wrapper`; `nil` if it were not stored.
    private static func keyOffset<Wrapper>(_: Wrapper.Type, _ key: KeyPath<Wrapper, String>) -> Int? {
        MemoryLayout<Wrapper>.offset(of: key)
    }
}
