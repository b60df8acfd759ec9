/// Turns ``DeclaredParameters`` into a `URLRequest`: the second step of encoding.
///
/// It checks the declaration (method, header names and values, duplicate headers,
/// conflicting bodies, duplicate JSON keys, unencodable values) and throws a
/// ``BuildError`` naming the property at fault; it never sends anything.
///
/// It writes the query string and the bodies straight into byte buffers and assigns all
/// header fields at once: `URLComponents.queryItems` and one `setValue(_:forHTTPHeaderField:)`
/// per header each cost more than the rest of the encoding.
struct URLRequestSerializer {
    var base: URL
    var path: String
    var method: HTTPMethod
    /// The parser's media type, sent as `Accept` unless a header declares one.
    var acceptedContentType: String?
    /// The request's ``Request/encodingStrategy``, which each field's strategy overrides.
    var strategy: EncodingStrategy = .inherit

    /// - Parameter plan: The configuration type's field plan, if it has one: declared header
    ///   names among its checked ones (``FieldPlan/checkedHeaderNames``), in order, need only
    ///   their values checked.
    func urlRequest(for parameters: DeclaredParameters, plan: FieldPlan? = nil) throws(BuildError) -> URLRequest {
        guard HTTPSyntax.isToken(method.rawValue) else { throw .invalidMethod(method) }
        let path = try PathTemplate.fill(path, with: parameters.path)
        // The closure captures the strategy alone: capturing `self` copies the serializer.
        let strategy = self.strategy
        let url = try URLComposer.url(base: base, path: path) { (text: inout [UInt8]) throws(BuildError) in
            try Self.appendQuery(parameters.query, strategy: strategy, to: &text)
        }
        guard let url else { throw .invalidURL(base: base.absoluteString, path: path) }
        let body = try self.body(parameters.body, plan: plan)
        var request = URLRequest(url: url)
        // `GET` is URLRequest's default, and setting a method costs a case-insensitive
        // comparison against every standard method.
        if method != .get { request.httpMethod = method.rawValue }
        request.allHTTPHeaderFields = try headerFields(parameters.headers, contentType: body?.contentType, plan: plan)
        if let body { request.setRequestBody(body.content) }
        return request
    }

    // MARK: Query

    /// Appends the query items, percent-encoded and joined by `&`, to the URL's text.
    private static func appendQuery(
        _ items: [DeclaredParameters.Item],
        strategy: EncodingStrategy,
        to text: inout [UInt8]
    ) throws(BuildError) {
        // The writer takes the text over and gives it back: no copy.
        var writer = FormWriter(style: .query)
        swap(&writer.output, &text)
        defer { swap(&writer.output, &text) }
        for index in items.indices {
            guard let value = items[index].parameter.value else {
                writer.appendKeyOnly(items[index].parameter.key)
                continue
            }
            try writer.append(
                value,
                key: items[index].parameter.key,
                strategy: items[index].parameter.strategy,
                request: strategy,
                field: items[index].field
            )
        }
    }

    // MARK: Headers

    /// The declared header fields, checked (``HeaderRules``), with `Content-Type` and `Accept`
    /// added unless declared.
    private func headerFields(
        _ declared: [DeclaredParameters.Declared<HeaderField>],
        contentType: String?,
        plan: FieldPlan?
    ) throws(BuildError) -> [String: String] {
        if let plan, plan.checkedHeaderNames(cover: declared.count, name: { declared[$0].parameter.name }) {
            for index in declared.indices {
                try HeaderRules.checkValue(
                    declared[index].parameter.value, name: declared[index].parameter.name, field: declared[index].field)
            }
        } else {
            try HeaderRules.check(
                count: declared.count,
                name: { declared[$0].parameter.name },
                value: { declared[$0].parameter.value },
                field: { declared[$0].field }
            )
        }
        var fields: [String: String] = Dictionary(minimumCapacity: declared.count + 2)
        for index in declared.indices {
            fields[declared[index].parameter.name] = declared[index].parameter.value
        }
        if let contentType, !declared.contains(where: { HTTPSyntax.namesEqual($0.parameter.name, "Content-Type") }) {
            fields["Content-Type"] = contentType
        }
        if let acceptedContentType, !declared.contains(where: { HTTPSyntax.namesEqual($0.parameter.name, "Accept") }) {
            fields["Accept"] = acceptedContentType
        }
        return fields
    }

    // MARK: Body

    private struct Body {
        var content: RequestBody
        var contentType: String

        init(data: Data, contentType: String) {
            content = RequestBody(data: data)
            self.contentType = contentType
        }

        init(content: RequestBody, contentType: String) {
            self.content = content
            self.contentType = contentType
        }

        init(multipart: MultipartBody) {
            content = multipart.body
            contentType = multipart.contentType
        }
    }

    // These loops read elements by index: binding a whole element copies its key, field name
    // and value.

    private func body(_ declared: [DeclaredParameters.Member], plan: FieldPlan?) throws(BuildError) -> Body? {
        guard !declared.isEmpty else { return nil }
        let encoding = declared[0].parameter.encoding
        for index in declared.indices.dropFirst()
        where declared[index].parameter.encoding != encoding || encoding.isWhole {
            throw .conflictingBodies(declared[0].field, declared[index].field)
        }
        let data: Data
        switch encoding.kind {
        case .multipart: return Body(multipart: try MultipartWriter.body(declared, strategy: strategy))
        case .json: data = try jsonBody(declared, plan: plan)
        case .formURLEncoded: data = try formBody(declared)
        case .wholeJSON:
            guard let whole = try wholeJSONBody(declared[0]) else { return nil }
            data = whole
        case .raw(let contentType):
            try HeaderRules.checkValue(contentType, name: "Content-Type", field: declared[0].field)
            guard let raw = try rawBody(declared[0]) else { return nil }
            data = raw
        case .file(let contentType):
            return try fileBody(declared[0], contentType: contentType)
        }
        return Body(data: data, contentType: encoding.contentType)
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

    /// The value's bytes, or `nil` for a `nil` value.
    private func rawBody(_ item: DeclaredParameters.Member) throws(BuildError) -> Data? {
        let value = item.parameter.value
        if value.isNil { return nil }
        let unwrapped = (value.boxed as? any OptionalProtocol)?.flattenedValue ?? value.boxed
        guard let data = unwrapped as? Data else {
            throw .unsupportedValue(
                field: item.field, key: item.parameter.key, reason: .notData(String(describing: type(of: unwrapped))))
        }
        return data
    }

    /// The file the value names as the whole body, or `nil` for a `nil` value.
    private func fileBody(
        _ item: DeclaredParameters.Member,
        contentType: String?
    ) throws(BuildError) -> Body? {
        let value = item.parameter.value
        if value.isNil { return nil }
        let unwrapped = (value.boxed as? any OptionalProtocol)?.flattenedValue ?? value.boxed
        guard let url = unwrapped as? URL else {
            throw .unsupportedValue(
                field: item.field, key: item.parameter.key, reason: .notFileURL(String(describing: type(of: unwrapped)))
            )
        }
        let type = contentType ?? MIMETypeTable.mimeType(forFilename: url.lastPathComponent)
        try HeaderRules.checkValue(type, name: "Content-Type", field: item.field)
        let size = try FileCheck.size(of: url, field: item.field, key: item.parameter.key)
        return Body(content: RequestBody(segments: [.file(url, size: size)]), contentType: type)
    }

    /// - Parameter plan: The configuration type's field plan, if it has one: keys among its
    ///   checked ones (``FieldPlan/checkedJSONKeys``), in order, are distinct.
    private func jsonBody(_ declared: [DeclaredParameters.Member], plan: FieldPlan?) throws(BuildError) -> Data {
        let key = { (index: Int) in declared[index].parameter.key }
        if plan?.checkedJSONKeys(cover: declared.count, key: key) != true,
            let (earlier, later) = DuplicateKeys.first(count: declared.count, key: key)
        {
            throw .duplicateBodyKey(
                declared[later].parameter.key, fields: [declared[earlier].field, declared[later].field])
        }
        do {
            return try JSONBodyWriter.write(declared, strategy: strategy)
        } catch {
            let item = declared[error.index]
            throw .valueEncodingFailed(field: item.field, key: item.parameter.key, underlying: error.underlying)
        }
    }

    private func formBody(_ declared: [DeclaredParameters.Member]) throws(BuildError) -> Data {
        var writer = FormWriter(style: .form)
        writer.output.reserveCapacity(32 * declared.count)
        for index in declared.indices where !declared[index].isOmitted {
            try writer.append(
                declared[index].parameter.value,
                key: declared[index].parameter.key,
                strategy: declared[index].parameter.strategy,
                request: strategy,
                field: declared[index].field
            )
        }
        return Data(writer.output)
    }
}
