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
