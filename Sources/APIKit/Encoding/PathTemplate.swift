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
    /// Appends `path`, its placeholders filled and every character a URL path may not hold
    /// percent-encoded (``PercentEncoding/appendPath(utf8:to:)``), to the URL's text.
    ///
    /// - Throws: ``BuildError/missingPathValue(_:path:)``, ``BuildError/unusedPathValue(_:field:path:)``,
    ///   ``BuildError/duplicatePathValue(_:fields:)``, ``BuildError/invalidPathValue(_:field:reason:)``
    ///   or the value's own encoding failure.
    static func append(_ path: String, with values: some PathValues, to output: inout [UInt8]) throws(BuildError) {
        let failure = path.withUTF8InPlace { utf8 -> BuildError? in
            guard values.count > 0 || utf8.contains(UInt8(ascii: "{")) else {
                PercentEncoding.appendPath(utf8: utf8, to: &output)
                return nil
            }
            do throws(BuildError) {
                try append(utf8, of: path, with: values, to: &output)
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
        with values: some PathValues,
        to output: inout [UInt8]
    ) throws(BuildError) {
        if let (earlier, later) = DuplicateKeys.first(count: values.count, key: values.name(at:)) {
            throw .duplicatePathValue(
                values.name(at: later), fields: [values.field(at: earlier), values.field(at: later)])
        }
        var used = UsedValues(count: values.count)
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
            guard let position = (0..<values.count).first(where: { values.name(at: $0) == name }) else {
                throw .missingPathValue(name, path: path)
            }
            try values.appendSegment(at: position, path: path, to: &output)
            used.insert(position)
            index = close + 1
            runStart = index
        }
        PercentEncoding.appendPath(utf8: UnsafeBufferPointer(rebasing: utf8[runStart...]), to: &output)
        if let unused = used.firstMissing {
            throw .unusedPathValue(values.name(at: unused), field: values.field(at: unused), path: path)
        }
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
}

/// The values a path's placeholders are filled with, in declaration order.
protocol PathValues {
    var count: Int { get }
    /// The placeholder name of the value at `index`.
    func name(at index: Int) -> String
    /// The property that declared it, for an error.
    func field(at index: Int) -> String
    /// Appends it as one percent-encoded path segment.
    func appendSegment(at index: Int, path: String, to output: inout [UInt8]) throws(BuildError)
}

extension PathValues {
    /// Appends the text of the value at `index` as one percent-encoded path segment, once it
    /// is found to be one: not empty, not a dot segment, no control character.
    func appendSegment(_ text: String, at index: Int, to output: inout [UInt8]) throws(BuildError) {
        guard !text.isEmpty else { throw .invalidPathValue(name(at: index), field: field(at: index), reason: .empty) }
        guard text != ".", text != ".." else {
            throw .invalidPathValue(name(at: index), field: field(at: index), reason: .dotSegment)
        }
        guard !HTTPSyntax.containsControlCharacter(text) else {
            throw .invalidPathValue(name(at: index), field: field(at: index), reason: .controlCharacter)
        }
        PercentEncoding.append(text, style: .query, to: &output)
    }
}

/// What the declared fields declared: every value of a configuration read with Mirror, or of
/// a plan with a path wrapper other than a `@PathSegment` of a `String` or an `Int`.
extension [DeclaredParameters.Declared<PathParameter>]: PathValues {
    func name(at index: Int) -> String { self[index].parameter.name }

    func field(at index: Int) -> String { self[index].field }

    func appendSegment(at index: Int, path: String, to output: inout [UInt8]) throws(BuildError) {
        try appendSegment(text(at: index, path: path), at: index, to: &output)
    }

    /// The value's one text, by the query's value encoder: a string or an integer as it is,
    /// anything else through its ``FormValue``.
    private func text(at index: Int, path: String) throws(BuildError) -> String {
        let (name, field) = (self[index].parameter.name, self[index].field)
        let value = DeclaredValue(opening: self[index].parameter.value)
        switch value {
        case .string(let string): return string
        case .int(let int): return String(int)
        default: break
        }
        let texts: [String]?
        do {
            texts = try FormValue.make(value).flatTexts(ResolvedStrategy(field: .inherit, request: .inherit))
        } catch {
            throw error.buildError(field: field, key: name)
        }
        guard let texts else {
            let type = type(of: value.unwrapped)
            throw .unsupportedValue(field: field, key: name, reason: .nestedValue(String(describing: type)))
        }
        guard let text = texts.first else { throw .missingPathValue(name, path: path) }
        guard texts.count == 1 else { throw .invalidPathValue(name, field: field, reason: .multipleValues) }
        return text
    }
}

/// The `@PathSegment` fields of a `String` or an `Int` of a plan whose path values are all
/// such (``FieldPlan/pathReadsInPlace``), read where the configuration stores them.
struct InPlacePathValues: PathValues {
    let base: UnsafeRawPointer
    let plan: FieldPlan

    var count: Int { plan.path.count }

    func name(at index: Int) -> String {
        (base + plan.path[index].offset + plan.path[index].keyOffset).assumingMemoryBound(to: String.self).pointee
    }

    func field(at index: Int) -> String { plan.fields[plan.path[index].field].name }

    func appendSegment(at index: Int, path: String, to output: inout [UInt8]) throws(BuildError) {
        let storage = base + plan.path[index].offset
        guard plan.path[index].kind == .pathString else {
            // An integer's digits (and sign) are a valid segment as they are.
            output.appendDecimal(storage.assumingMemoryBound(to: PathSegment<Int>.self).pointee.wrappedValue)
            return
        }
        try appendSegment(
            storage.assumingMemoryBound(to: PathSegment<String>.self).pointee.wrappedValue, at: index, to: &output)
    }
}
