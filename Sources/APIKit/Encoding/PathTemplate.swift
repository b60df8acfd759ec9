/// Fills the `{name}` placeholders of a request's path with its ``PathSegment`` values.
///
/// A placeholder is `{`, one or more characters other than `{`, `}` and `/`, and `}`; other
/// braces are left to be percent-encoded with the rest of the path. Each value is written as
/// text by the query's value encoder (``FormValue``, with the default strategies) and
/// percent-encoded as one segment (everything outside the
/// unreserved set, `/` included), so it cannot reach another segment, the query or the
/// fragment. Every placeholder needs exactly one value and every value a placeholder.
///
/// The path is scanned as UTF-8 bytes and written into one buffer: no byte of a multi-byte
/// character equals `{`, `}` or `/`, so this finds the placeholders a scan by character finds.
enum PathTemplate {
    typealias Declared = DeclaredParameters.Declared<PathParameter>

    /// Appends `path`, its placeholders filled and every character a URL path may not hold
    /// percent-encoded (``PercentEncoding/appendPath(utf8:to:)``), to the URL's text.
    ///
    /// - Throws: ``BuildError/missingPathValue(_:path:)``, ``BuildError/unusedPathValue(_:field:path:)``,
    ///   ``BuildError/duplicatePathValue(_:fields:)``, ``BuildError/invalidPathValue(_:field:reason:)``
    ///   or the value's own encoding failure.
    static func append(_ path: String, with declared: [Declared], to output: inout [UInt8]) throws(BuildError) {
        let failure = path.withUTF8InPlace { utf8 -> BuildError? in
            guard !declared.isEmpty || utf8.contains(UInt8(ascii: "{")) else {
                PercentEncoding.appendPath(utf8: utf8, to: &output)
                return nil
            }
            do throws(BuildError) {
                try append(utf8, of: path, with: declared, to: &output)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// `append(_:with:to:)` on the path's UTF-8 bytes.
    private static func append(
        _ utf8: UnsafeBufferPointer<UInt8>,
        of path: String,
        with declared: [Declared],
        to output: inout [UInt8]
    ) throws(BuildError) {
        if let (earlier, later) = DuplicateKeys.first(count: declared.count, key: { declared[$0].parameter.name }) {
            throw .duplicatePathValue(
                declared[later].parameter.name, fields: [declared[earlier].field, declared[later].field])
        }
        var used = UsedValues(count: declared.count)
        var runStart = 0
        var index = 0
        while index < utf8.count {
            guard utf8[index] == UInt8(ascii: "{") else {
                index += 1
                continue
            }
            var close = index + 1
            while close < utf8.count, !isDelimiter(utf8[close]) { close += 1 }
            // Not a placeholder: the brace stays, to be percent-encoded with the path.
            guard close < utf8.count, utf8[close] == UInt8(ascii: "}"), close > index + 1 else {
                index += 1
                continue
            }
            PercentEncoding.appendPath(utf8: UnsafeBufferPointer(rebasing: utf8[runStart..<index]), to: &output)
            let name = String(decoding: UnsafeBufferPointer(rebasing: utf8[(index + 1)..<close]), as: UTF8.self)
            guard let position = declared.firstIndex(where: { $0.parameter.name == name }) else {
                throw .missingPathValue(name, path: path)
            }
            try appendSegment(for: declared[position], path: path, to: &output)
            used.insert(position)
            index = close + 1
            runStart = index
        }
        PercentEncoding.appendPath(utf8: UnsafeBufferPointer(rebasing: utf8[runStart...]), to: &output)
        if let unused = used.firstMissing {
            throw .unusedPathValue(declared[unused].parameter.name, field: declared[unused].field, path: path)
        }
    }

    /// The path as ``append(_:with:to:)`` writes it, as text: what an error names.
    static func filled(_ path: String, with declared: [Declared]) -> String {
        var bytes: [UInt8] = []
        do {
            try append(path, with: declared, to: &bytes)
        } catch {
            return path
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Which values a placeholder used: bits of one word for up to 64 values (no allocation),
    /// a list beyond.
    private struct UsedValues {
        private var bits: UInt64 = 0
        private var list: [Bool]
        private let count: Int

        init(count: Int) {
            self.count = count
            list = count > 64 ? [Bool](repeating: false, count: count) : []
        }

        mutating func insert(_ index: Int) {
            if count > 64 { list[index] = true } else { bits |= 1 << UInt64(index) }
        }

        /// The first value no placeholder used.
        var firstMissing: Int? {
            if count > 64 { return list.firstIndex(of: false) }
            let missing = ~bits & (count == 64 ? .max : (1 << UInt64(count)) - 1)
            return missing == 0 ? nil : missing.trailingZeroBitCount
        }
    }

    /// The bytes that end a placeholder's name: `}`, `{` and `/`.
    @inline(__always)
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "}") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "/")
    }

    /// Appends a value as one percent-encoded path segment.
    private static func appendSegment(for item: Declared, path: String, to filled: inout [UInt8]) throws(BuildError) {
        let name = item.parameter.name
        let text = try self.text(of: item, path: path)
        guard !text.isEmpty else { throw .invalidPathValue(name, field: item.field, reason: .empty) }
        guard text != ".", text != ".." else { throw .invalidPathValue(name, field: item.field, reason: .dotSegment) }
        guard !HTTPSyntax.containsControlCharacter(text) else {
            throw .invalidPathValue(name, field: item.field, reason: .controlCharacter)
        }
        PercentEncoding.append(text, style: .query, to: &filled)
    }

    /// A value's one text, by the query's value encoder: a string or an integer as it is,
    /// anything else through its ``FormValue``.
    private static func text(of item: Declared, path: String) throws(BuildError) -> String {
        let name = item.parameter.name
        let value = DeclaredValue(opening: item.parameter.value)
        switch value {
        case .string(let string): return string
        case .int(let int): return String(int)
        default: break
        }
        let texts: [String]?
        do {
            texts = try FormValue.make(value).flatTexts(ResolvedStrategy(field: .inherit, request: .inherit))
        } catch {
            throw error.buildError(field: item.field, key: name)
        }
        guard let texts else {
            let boxed = value.boxed
            let type = type(of: (boxed as? any OptionalProtocol)?.flattenedValue ?? boxed)
            throw .unsupportedValue(field: item.field, key: name, reason: .nestedValue(String(describing: type)))
        }
        guard let text = texts.first else { throw .missingPathValue(name, path: path) }
        guard texts.count == 1 else { throw .invalidPathValue(name, field: item.field, reason: .multipleValues) }
        return text
    }
}
