extension URLRequestSerializer {
    /// The request for the configuration stored at `configuration`, written straight from its field
    /// plan's ``DirectWriting``: the same request, checked in the same order and failing with
    /// the same error, as ``urlRequest(for:)`` builds from the declared parameters.
    ///
    /// - Parameters:
    ///   - configuration: Where the configuration is stored.
    ///   - plan: Its field plan.
    ///   - direct: The plan's ``FieldPlan/direct``.
    /// - Throws: ``BuildError`` for an invalid declaration.
    func urlRequest(at configuration: UnsafeRawPointer, plan: FieldPlan, direct: DirectWriting) throws(BuildError)
        -> URLRequest
    {
        guard HTTPSyntax.isToken(method.rawValue) else { throw .invalidMethod(method) }
        // No path parameters: this still rejects a template with placeholders.
        let path = try PathTemplate.fill(path, with: [])
        let strategy = self.strategy
        let url = try URLComposer.url(base: base, path: path) { (text: inout [UInt8]) throws(BuildError) in
            // The writer takes the text over and gives it back: no copy.
            var writer = FormWriter(style: .query)
            swap(&writer.output, &text)
            defer { swap(&writer.output, &text) }
            try direct.appendQuery(at: configuration, plan: plan, request: strategy, to: &writer)
        }
        guard let url else { throw .invalidURL(base: base.absoluteString, path: path) }
        let body =
            direct.json.isEmpty ? nil : try direct.jsonBody(at: configuration, fields: plan.fields, request: strategy)
        var request = URLRequest(url: url)
        if method != .get { request.httpMethod = method.rawValue }
        request.allHTTPHeaderFields = try direct.headerFields(
            at: configuration,
            fields: plan.fields,
            contentType: body == nil ? nil : BodyEncoding.json.contentType,
            accept: acceptedContentType
        )
        if let body { request.httpBody = body }
        return request
    }
}
