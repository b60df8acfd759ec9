/// Fills the `{name}` placeholders of a request's path with its ``PathSegment`` values.
///
/// A placeholder is `{`, one or more characters other than `{`, `}` and `/`, and `}`; other
/// braces are left to be percent-encoded with the rest of the path. Each value is written as
/// text by the query's value encoder (``FormValue``, with the default strategies) and
/// percent-encoded as one segment (everything outside the
/// unreserved set, `/` included), so it cannot reach another segment, the query or the
/// fragment. Every placeholder needs exactly one value and every value a placeholder.
enum PathTemplate {
    static func fill(_ path: String, with declared: [DeclaredParameters.Declared<PathParameter>]) throws(BuildError)
        -> String
    {
        let hasBrace = path.withUTF8InPlace { $0.contains(UInt8(ascii: "{")) }
        guard !declared.isEmpty || hasBrace else { return path }
        if let (earlier, later) = DuplicateKeys.first(count: declared.count, key: { declared[$0].parameter.name }) {
            throw .duplicatePathValue(
                declared[later].parameter.name, fields: [declared[earlier].field, declared[later].field])
        }
        var filled = ""
        var used = Set<String>()
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{") {
            filled += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" || $0 == "/" }),
                rest[close] == "}", close > afterOpen
            else {
                // Not a placeholder: keep the brace, to be percent-encoded with the path.
                filled += "{"
                rest = rest[afterOpen...]
                continue
            }
            let name = String(rest[afterOpen..<close])
            guard let item = declared.first(where: { $0.parameter.name == name }) else {
                throw .missingPathValue(name, path: path)
            }
            filled += try segment(for: item, path: path)
            used.insert(name)
            rest = rest[rest.index(after: close)...]
        }
        filled += rest
        if let unused = declared.first(where: { !used.contains($0.parameter.name) }) {
            throw .unusedPathValue(unused.parameter.name, field: unused.field, path: path)
        }
        return filled
    }

    /// A value as one percent-encoded path segment.
    private static func segment(for item: DeclaredParameters.Declared<PathParameter>, path: String) throws(BuildError)
        -> String
    {
        let name = item.parameter.name
        let value = item.parameter.value
        let texts: [String]?
        do {
            texts = try FormValue.make(value).flatTexts(ResolvedStrategy(field: .inherit, request: .inherit))
        } catch {
            throw error.buildError(field: item.field, key: name)
        }
        guard let texts else {
            let type = type(of: (value as? any OptionalProtocol)?.flattenedValue ?? value)
            throw .unsupportedValue(field: item.field, key: name, reason: .nestedValue(String(describing: type)))
        }
        guard let text = texts.first else { throw .missingPathValue(name, path: path) }
        guard texts.count == 1 else { throw .invalidPathValue(name, field: item.field, reason: .multipleValues) }
        guard !text.isEmpty else { throw .invalidPathValue(name, field: item.field, reason: .empty) }
        guard text != ".", text != ".." else { throw .invalidPathValue(name, field: item.field, reason: .dotSegment) }
        guard !HTTPSyntax.containsControlCharacter(text) else {
            throw .invalidPathValue(name, field: item.field, reason: .controlCharacter)
        }
        return PercentEncoding.encode(text, style: .query)
    }
}
