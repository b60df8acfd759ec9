/// Turns ``DeclaredParameters`` into a `URLRequest`: the second step of encoding.
///
/// It checks the declaration (method, header names and values, duplicate headers,
/// conflicting bodies, duplicate JSON keys, unencodable values) and throws a
/// ``BuildError`` naming the property at fault; it never sends anything.
struct URLRequestSerializer {
    var base: URL
    var path: String
    var method: HTTPMethod
    /// The parser's media type, sent as `Accept` unless a header declares one.
    var acceptedContentType: String?

    func urlRequest(for parameters: DeclaredParameters) throws(BuildError) -> URLRequest {
        guard HTTPSyntax.isToken(method.rawValue) else { throw .invalidMethod(method) }
        let query = try queryString(parameters.query)
        guard let url = URLComposer.url(base: base, path: path, query: query) else {
            throw .invalidURL(base: base.absoluteString, path: path)
        }
        let body = try self.body(parameters.body)
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        request.allHTTPHeaderFields = try headerFields(parameters.headers, contentType: body?.contentType)
        request.httpBody = body?.data
        return request
    }

    // MARK: Query

    private func queryString(_ items: [DeclaredParameters.Declared<QueryParameter>]) throws(BuildError) -> String {
        var pairs: [String] = []
        for item in items {
            let key = PercentEncoding.encode(item.parameter.key, style: .query)
            switch item.parameter.value {
            case .keyOnly:
                pairs.append(key)
            case .encodable(let value):
                for text in try Self.texts(for: value, key: item.parameter.key, field: item.field) {
                    pairs.append(key + "=" + PercentEncoding.encode(text, style: .query))
                }
            }
        }
        return pairs.joined(separator: "&")
    }

    private static func texts(for value: any Encodable, key: String, field: String) throws(BuildError) -> [String] {
        do {
            return try ScalarText.texts(for: value)
        } catch {
            switch error {
            case .unsupported(let reason):
                throw .unsupportedValue(field: field, key: key, reason: reason)
            case .encodingFailed(let underlying):
                throw .valueEncodingFailed(field: field, key: key, underlying: underlying)
            }
        }
    }

    // MARK: Headers

    private func headerFields(
        _ declared: [DeclaredParameters.Declared<HeaderField>],
        contentType: String?
    ) throws(BuildError) -> [String: String] {
        var fields: [String: String] = [:]
        var declaringField: [String: String] = [:]  // lower-cased name → property
        for item in declared {
            let name = item.parameter.name
            guard HTTPSyntax.isToken(name) else { throw .invalidHeaderName(name, field: item.field) }
            guard HTTPSyntax.isValidFieldValue(item.parameter.value) else {
                throw .invalidHeaderValue(name: name, field: item.field)
            }
            let lowercased = name.lowercased()
            if let first = declaringField[lowercased] {
                throw .duplicateHeader(name, fields: [first, item.field])
            }
            declaringField[lowercased] = item.field
            fields[name] = item.parameter.value
        }
        if let contentType, declaringField["content-type"] == nil {
            fields["Content-Type"] = contentType
        }
        if let acceptedContentType, declaringField["accept"] == nil {
            fields["Accept"] = acceptedContentType
        }
        return fields
    }

    // MARK: Body

    private struct Body {
        var data: Data
        var contentType: String
    }

    private func body(_ declared: [DeclaredParameters.Declared<BodyParameter>]) throws(BuildError) -> Body? {
        guard let first = declared.first else { return nil }
        let encoding = first.parameter.encoding
        if let conflicting = declared.first(where: { $0.parameter.encoding != encoding }) {
            throw .conflictingBodies(first.field, conflicting.field)
        }
        let data: Data
        switch encoding.kind {
        case .json: data = try jsonBody(declared)
        case .formURLEncoded: data = try formBody(declared)
        }
        return Body(data: data, contentType: encoding.contentType)
    }

    private func jsonBody(_ declared: [DeclaredParameters.Declared<BodyParameter>]) throws(BuildError) -> Data {
        var fieldForKey: [String: String] = [:]
        for item in declared {
            if let first = fieldForKey[item.parameter.key] {
                throw .duplicateBodyKey(item.parameter.key, fields: [first, item.field])
            }
            fieldForKey[item.parameter.key] = item.field
        }
        do {
            return try JSONBodyWriter.write(declared.map { ($0.parameter.key, $0.parameter.value) })
        } catch {
            let item = declared[error.index]
            throw .valueEncodingFailed(field: item.field, key: item.parameter.key, underlying: error.underlying)
        }
    }

    private func formBody(_ declared: [DeclaredParameters.Declared<BodyParameter>]) throws(BuildError) -> Data {
        var pairs: [String] = []
        for item in declared {
            let key = PercentEncoding.encode(item.parameter.key, style: .form)
            for text in try Self.texts(for: item.parameter.value, key: item.parameter.key, field: item.field) {
                pairs.append(key + "=" + PercentEncoding.encode(text, style: .form))
            }
        }
        return Data(pairs.joined(separator: "&").utf8)
    }
}
