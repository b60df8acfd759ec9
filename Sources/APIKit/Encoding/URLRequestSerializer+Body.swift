extension URLRequestSerializer {
    /// A request body and its media type.
    struct Body {
        /// Bytes in memory, or a body of segments (parts, files).
        enum Content {
            case data(Data)
            case segments(RequestBody)
        }

        var content: Content
        var contentType: String

        init(data: Data, contentType: String) {
            content = .data(data)
            self.contentType = contentType
        }

        init(content: RequestBody, contentType: String) {
            self.content = .segments(content)
            self.contentType = contentType
        }

        init(multipart: MultipartBody) {
            content = .segments(multipart.body)
            contentType = multipart.contentType
        }
    }

    /// The body of the plan's body members — `@JSON` and `@Field` fields read in place, and
    /// what the declared fields declared — or `nil` when there is none.
    ///
    /// - Throws: ``BuildError/conflictingBodies(_:_:)`` when members declare different kinds of
    ///   body, or a whole body beside another member; the errors of each kind's writer.
    func body(at base: UnsafeRawPointer, plan: FieldPlan?, declared: [DeclaredParameters.Member])
        throws(BuildError) -> Body?
    {
        guard let plan, !plan.body.isEmpty else {
            return declared.isEmpty ? nil : try declaredBody(declared)
        }
        // Without declared members every member is a `@JSON` or a `@Field`: decided once.
        if !plan.declaresBody {
            switch plan.inPlaceBody {
            case .none: return nil
            case .json: return try membersBody(.json, at: base, plan: plan, declared: declared)
            case .form: return try membersBody(.formURLEncoded, at: base, plan: plan, declared: declared)
            case .conflict(let first, let other):
                throw .conflictingBodies(plan.fields[first].name, plan.fields[other].name)
            }
        }
        // Every member was declared: the declared members are the whole body, in order.
        if case .none = plan.inPlaceBody {
            return declared.isEmpty ? nil : try declaredBody(declared)
        }
        // Members read in place and declared ones: check the kinds in declaration order.
        var members: [(encoding: BodyEncoding, field: String)] = []
        var next = 0
        for item in plan.body {
            guard let encoding = item.kind.bodyEncoding else {
                for index in item.declaredRange(in: declared, from: &next) {
                    members.append((declared[index].parameter.encoding, declared[index].field))
                }
                continue
            }
            members.append((encoding, plan.fields[item.field].name))
        }
        let first = members[0]
        if let other = Self.firstConflict(count: members.count, encoding: { members[$0].encoding }) {
            throw .conflictingBodies(first.field, members[other].field)
        }
        return try membersBody(first.encoding, at: base, plan: plan, declared: declared)
    }

    /// The JSON object or form body of the members — `encoding` is `.json` or
    /// `.formURLEncoded`, the two kinds made of several members — in declaration order.
    private func membersBody(
        _ encoding: BodyEncoding,
        at base: UnsafeRawPointer,
        plan: FieldPlan?,
        declared: [DeclaredParameters.Member]
    ) throws(BuildError) -> Body {
        let data =
            encoding == .formURLEncoded
            ? try formBody(at: base, plan: plan, declared: declared)
            : try jsonBody(at: base, plan: plan, declared: declared)
        return Body(data: data, contentType: encoding.contentType)
    }

    /// The body of members that were all declared (a configuration read with Mirror, or a
    /// plan whose body fields are all declared).
    private func declaredBody(_ declared: [DeclaredParameters.Member]) throws(BuildError) -> Body? {
        let encoding = declared[0].parameter.encoding
        if let other = Self.firstConflict(count: declared.count, encoding: { declared[$0].parameter.encoding }) {
            throw .conflictingBodies(declared[0].field, declared[other].field)
        }
        let data: Data
        switch encoding.kind {
        case .multipart: return Body(multipart: try MultipartWriter.body(declared, strategy: strategy))
        case .json, .formURLEncoded:
            return try membersBody(encoding, at: FieldPlan.noStorage, plan: nil, declared: declared)
        case .wholeJSON:
            guard let whole = try wholeJSONBody(declared[0]) else { return nil }
            data = whole
        case .raw(let contentType):
            try HeaderRules.checkValue(contentType, name: "Content-Type", field: declared[0].field)
            guard let raw = try wholeBody(declared[0], as: Data.self, reason: BuildError.UnsupportedValueReason.notData)
            else { return nil }
            data = raw
        case .file(let contentType):
            return try fileBody(declared[0], contentType: contentType)
        }
        return Body(data: data, contentType: encoding.contentType)
    }

    /// The first body member, after the first, that cannot share a body with it: one of
    /// another kind, or any second member beside a whole body (JSON document, raw bytes, a
    /// file). `nil` when they can all be one body.
    static func firstConflict(count: Int, encoding: (Int) -> BodyEncoding) -> Int? {
        guard count > 1 else { return nil }
        let first = encoding(0)
        for index in 1..<count where encoding(index) != first || first.isWhole { return index }
        return nil
    }

    /// The value as one JSON document, or `nil` for a `nil` value.
    private func wholeJSONBody(_ item: DeclaredParameters.Member) throws(BuildError) -> Data? {
        let value = item.parameter.value
        if value.isNil { return nil }
        do {
            let strategy = ResolvedStrategy(field: item.parameter.strategy, request: strategy)
            return try JSONBodyWriter.document(value, strategy: strategy)
        } catch {
            throw .valueEncodingFailed(field: item.field, key: item.parameter.key, underlying: error)
        }
    }

    /// The value of a whole body that must be a `T` (raw `Data`, a file `URL`), or `nil` for a
    /// `nil` value.
    ///
    /// - Throws: ``BuildError/unsupportedValue(field:key:reason:)`` with `reason` for a value of
    ///   another type.
    private func wholeBody<T>(
        _ item: DeclaredParameters.Member,
        as _: T.Type,
        reason: (String) -> BuildError.UnsupportedValueReason
    ) throws(BuildError) -> T? {
        let value = item.parameter.value
        if value.isNil { return nil }
        let unwrapped = value.unwrapped
        guard let typed = unwrapped as? T else {
            throw .unsupportedValue(
                field: item.field, key: item.parameter.key, reason: reason(String(describing: type(of: unwrapped))))
        }
        return typed
    }

    /// The file the value names as the whole body, or `nil` for a `nil` value.
    private func fileBody(_ item: DeclaredParameters.Member, contentType: String?) throws(BuildError) -> Body? {
        guard let url = try wholeBody(item, as: URL.self, reason: BuildError.UnsupportedValueReason.notFileURL) else {
            return nil
        }
        let type = contentType ?? MIMETypeTable.mimeType(forFilename: url.lastPathComponent)
        try HeaderRules.checkValue(type, name: "Content-Type", field: item.field)
        let size = try FileCheck.size(of: url, field: item.field, key: item.parameter.key)
        return Body(content: RequestBody(segments: [.file(url, size: size)]), contentType: type)
    }

    // MARK: JSON

    /// The JSON object of the members, in declaration order.
    ///
    /// - Throws: ``BuildError/duplicateBodyKey(_:fields:)`` when two members, `nil` ones
    ///   included, have the same key; ``BuildError/valueEncodingFailed(field:key:underlying:)``
    ///   for a value that cannot be written.
    private func jsonBody(at base: UnsafeRawPointer, plan: FieldPlan?, declared: [DeclaredParameters.Member])
        throws(BuildError) -> Data
    {
        let items = FieldPlan.bodyItems(of: plan)
        try checkJSONKeys(at: base, plan: plan, declared: declared)
        var body: [UInt8] = [UInt8(ascii: "{")]
        body.reserveCapacity(64 * max(items.count, declared.count) + 2)
        var isFirst = true
        var next = 0
        // The declared member being written, to name it when it fails.
        var failing = 0
        let request = strategy
        for item in items {
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
                case .header, .queryString, .queryInt, .queryBool, .queryStrings, .queryOptionalString,
                    .queryOptionalInt, .queryOptionalBool, .fieldString, .fieldInt, .fieldBool, .fieldOptionalString,
                    .fieldOptionalInt, .pathString, .pathInt:
                    // FieldPlan lists an item here only when its category is this list's, or declared
                    preconditionFailure("a \(item.kind) item among the JSON members")
                case .declared:
                    for index in item.declaredRange(in: declared, from: &next) {
                        failing = index
                        try JSONBodyWriter.appendMember(
                            declared[index].parameter.value,
                            key: declared[index].parameter.key,
                            field: declared[index].parameter.strategy,
                            request: request,
                            isFirst: &isFirst,
                            to: &body
                        )
                    }
                }
            } catch {
                // The member that failed: the field's own, or the declared one being written.
                guard item.kind == .declared else {
                    throw .valueEncodingFailed(
                        field: plan?.fields[item.field].name ?? "", key: Self.key(of: item, at: base),
                        underlying: error)
                }
                throw .valueEncodingFailed(
                    field: declared[failing].field, key: declared[failing].parameter.key, underlying: error)
            }
        }
        body.append(UInt8(ascii: "}"))
        return Data(body)
    }

    /// Throws when two members have the same key; `nil` members count.
    private func checkJSONKeys(at base: UnsafeRawPointer, plan: FieldPlan?, declared: [DeclaredParameters.Member])
        throws(BuildError)
    {
        if let plan, !plan.declaresBody {
            guard plan.checkedJSONKeys?.match(at: base, plan.body) != true else { return }
            let items = plan.body
            if let (earlier, later) = DuplicateKeys.first(
                count: items.count, key: { Self.key(of: items[$0], at: base) })
            {
                throw .duplicateBodyKey(
                    Self.key(of: items[later], at: base),
                    fields: [plan.fields[items[earlier].field].name, plan.fields[items[later].field].name])
            }
            return
        }
        // Declared members among them: every key, in declaration order.
        var keys: [(key: String, field: String)] = []
        var next = 0
        for item in FieldPlan.bodyItems(of: plan) {
            guard item.kind == .declared else {
                keys.append((Self.key(of: item, at: base), plan?.fields[item.field].name ?? ""))
                continue
            }
            for index in item.declaredRange(in: declared, from: &next) {
                keys.append((declared[index].parameter.key, declared[index].field))
            }
        }
        let key = { (index: Int) in keys[index].key }
        if plan?.checkedJSONKeys?.coversInOrder(count: keys.count, key: key) != true,
            let (earlier, later) = DuplicateKeys.first(count: keys.count, key: key)
        {
            throw .duplicateBodyKey(keys[later].key, fields: [keys[earlier].field, keys[later].field])
        }
    }

    /// Appends the member of one `@JSON` stored at `storage`, specialised for its value type.
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

    /// The key of a member read in place.
    @inline(__always)
    private static func key(of item: FieldPlan.Item, at base: UnsafeRawPointer) -> String {
        (base + item.offset + item.keyOffset).assumingMemoryBound(to: String.self).pointee
    }

    // MARK: Form

    /// The form body of the members, in declaration order.
    private func formBody(at base: UnsafeRawPointer, plan: FieldPlan?, declared: [DeclaredParameters.Member])
        throws(BuildError) -> Data
    {
        let items = FieldPlan.bodyItems(of: plan)
        var writer = FormWriter(style: .form)
        writer.output.reserveCapacity(32 * max(items.count, declared.count))
        var next = 0
        let request = strategy
        for item in items {
            let storage = base + item.offset
            switch item.kind {
            case .fieldString: try Self.appendItem(Field<String>.self, storage, plan, item, request, &writer)
            case .fieldInt: try Self.appendItem(Field<Int>.self, storage, plan, item, request, &writer)
            case .fieldBool: try Self.appendItem(Field<Bool>.self, storage, plan, item, request, &writer)
            case .fieldOptionalString:
                try Self.appendItem(Field<String?>.self, storage, plan, item, request, &writer)
            case .fieldOptionalInt: try Self.appendItem(Field<Int?>.self, storage, plan, item, request, &writer)
            case .header, .queryString, .queryInt, .queryBool, .queryStrings, .queryOptionalString,
                .queryOptionalInt, .queryOptionalBool, .jsonString, .jsonInt, .jsonBool, .jsonDouble,
                .jsonOptionalString, .jsonOptionalInt, .jsonOptionalBool, .jsonOptionalDouble, .jsonOptionalStrings,
                .pathString, .pathInt:
                // FieldPlan lists an item here only when its category is this list's, or declared
                preconditionFailure("a \(item.kind) item among the form fields")
            case .declared:
                for index in item.declaredRange(in: declared, from: &next) {
                    try writer.append(
                        declared[index].parameter.value,
                        key: declared[index].parameter.key,
                        strategy: declared[index].parameter.strategy,
                        request: request,
                        field: declared[index].field
                    )
                }
            }
        }
        return Data(writer.output)
    }
}
