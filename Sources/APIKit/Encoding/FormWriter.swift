/// Writes query items and form fields — `key=text` joined by `&`, percent-encoded — with the
/// encoding strategies: the second step of writing a value, shared by the query string and
/// the form body.
///
/// The common scalars and `[String]`/`[Int]` are written directly (``DeclaredValue``); any
/// other value becomes a ``FormValue`` tree first, which is flattened here: an object's
/// members get `key[member]` or `key.member` keys, a list's elements follow the
/// ``ArrayEncoding``. A shape the array strategy cannot write unambiguously throws.
struct FormWriter {
    /// The text written so far (for a query, the URL up to and including `?` or `&`).
    var output: [UInt8]
    let style: PercentEncoding.Style
    /// Whether an item has been written, so the next one needs a `&`.
    private var hasItems = false
    /// For the value being written: the identity of a key known to need no percent-encoding
    /// (``FieldPlan/Item/plainKey``).
    private var plainKey: CheckedKeys.Identity?

    init(output: [UInt8] = [], style: PercentEncoding.Style) {
        self.output = output
        self.style = style
    }

    /// One part of a nested key after the parameter's own key.
    enum KeyPart {
        case member(String)
        case index(Int)
        /// `[]`, for ``ArrayEncoding/brackets``.
        case append
    }

    // MARK: Items

    /// Appends the bare key, with no `=`.
    mutating func appendKeyOnly(_ key: String) {
        separate()
        PercentEncoding.append(key, style: style, to: &output)
    }

    /// Appends the items of a declared value, turning a failure into the ``BuildError`` that
    /// names the property and the key.
    ///
    /// - Parameters:
    ///   - plainKey: A key known to need no percent-encoding (``FieldPlan/Item/plainKey``):
    ///     when `key` is that very string, it is written as it is.
    ///   - field: The property that declared the value, read only to report a failure.
    @inline(__always)
    mutating func append(
        _ value: consuming DeclaredValue,
        key: String,
        plainKey: CheckedKeys.Identity? = nil,
        strategy: @autoclosure () -> EncodingStrategy,
        request: EncodingStrategy,
        field: @autoclosure () -> String
    ) throws(BuildError) {
        self.plainKey = plainKey
        defer { self.plainKey = nil }
        do {
            try append(consume value, key: key, strategy: strategy(), request: request)
        } catch {
            throw error.buildError(field: field(), key: key)
        }
    }

    /// Appends the items a value is written as: none for `nil` (unless the nil strategy
    /// writes one) or an empty array, one for a scalar, one per element for an array, and
    /// an object's members by the nesting strategy.
    ///
    /// The one writer of a value into a query string or a form body. The common scalars are
    /// written as they are held (``DeclaredValue``), resolving only the strategy members
    /// they need; inlined, so that a reader that knows the value's type (the field plan's
    /// ``URLRequestSerializer``) gets a writer specialised for it.
    ///
    /// - Parameters:
    ///   - strategy: The field's strategy, read member by member where it is stored: copying a
    ///     whole strategy copies its date encoding, which may hold a closure.
    ///   - request: The request's, which the field's overrides member by member.
    @inline(__always)
    mutating func append(
        _ value: consuming DeclaredValue,
        key: String,
        strategy: @autoclosure () -> EncodingStrategy,
        request: EncodingStrategy
    ) throws(FormValue.Failure) {
        // Without key parts the nesting strategy does not apply: `.brackets` stands in. The
        // value is consumed: its payload is moved out, not copied.
        switch consume value {
        case .string(let string): appendItem(key, [], string, .brackets)
        case .int(let int): appendItem(key, unreserved: { $0.appendDecimal(int) })
        case .bool(let bool):
            let bools = ResolvedStrategy.bools(field: strategy().bools, request: request.bools)
            appendItem(key, unreserved: { bools.appendText(bool, to: &$0) })
        case .double(let double):
            guard double.isFinite else { throw .unsupported(.nonFiniteNumber) }
            appendItem(key, [], String(describing: double), .brackets)
        case .strings(let strings):
            let arrays = ResolvedStrategy.arrays(field: strategy().arrays, request: request.arrays)
            appendList(key, strings, arrays: arrays, nesting: .brackets, parts: [])
        case .ints(let ints):
            let arrays = ResolvedStrategy.arrays(field: strategy().arrays, request: request.arrays)
            appendList(key, ints.map { String($0) }, arrays: arrays, nesting: .brackets, parts: [])
        case .none:
            let nils = ResolvedStrategy.nils(field: strategy().nils, request: request.nils)
            if let text = nils.text { appendItem(key, [], text, .brackets) }
        case .other(let other):
            let strategy = ResolvedStrategy(field: strategy(), request: request)
            try append(FormValue.make(.other(other)), key: key, parts: [], strategy: strategy)
        }
    }

    // MARK: Trees

    private mutating func append(
        _ value: FormValue,
        key: String,
        parts: [KeyPart],
        strategy: ResolvedStrategy
    ) throws(FormValue.Failure) {
        switch value {
        case .null: appendNil(key, parts, strategy)
        case .object(let members):
            for member in members {
                try append(member.value, key: key, parts: parts + [.member(member.key)], strategy: strategy)
            }
        case .list(let elements): try appendList(elements, key: key, parts: parts, strategy: strategy)
        case .text, .bool, .date: appendItem(key, parts, value.text(strategy) ?? "", strategy.nesting)
        }
    }

    private mutating func appendList(
        _ elements: [FormValue],
        key: String,
        parts: [KeyPart],
        strategy: ResolvedStrategy
    ) throws(FormValue.Failure) {
        if strategy.arrays == .indexed {
            for (index, element) in elements.enumerated() {
                try append(element, key: key, parts: parts + [.index(index)], strategy: strategy)
            }
            return
        }
        for (index, element) in elements.enumerated() {
            let kind: String
            switch element {
            case .list: kind = "list"
            case .object: kind = "object"
            case .text, .bool, .date, .null: continue
            }
            throw .unsupported(
                .elementNotExpressible(
                    at: Self.describe(key, parts + [.index(index)], strategy),
                    element: kind,
                    arrays: strategy.arrays
                )
            )
        }
        appendList(key, FormValue.list(elements).flatTexts(strategy) ?? [], strategy, parts: parts)
    }

    // MARK: Writing

    private mutating func separate() {
        if hasItems { output.append(UInt8(ascii: "&")) }
        hasItems = true
    }

    private mutating func appendKey(_ key: String, _ parts: [KeyPart], _ nesting: NestingEncoding) {
        if let plainKey, plainKey == CheckedKeys.Identity(key) {
            key.withUTF8InPlace { output.append(contentsOf: $0) }
        } else {
            PercentEncoding.append(key, style: style, to: &output)
        }
        for part in parts {
            switch part {
            case .member(let member):
                if nesting == .dotted {
                    output.append(UInt8(ascii: "."))
                    PercentEncoding.append(member, style: style, to: &output)
                } else {
                    output.append(contentsOf: Self.openBracket)
                    PercentEncoding.append(member, style: style, to: &output)
                    output.append(contentsOf: Self.closeBracket)
                }
            case .index(let index):
                output.append(contentsOf: Self.openBracket)
                output.append(contentsOf: String(index).utf8)
                output.append(contentsOf: Self.closeBracket)
            case .append:
                output.append(contentsOf: Self.openBracket)
                output.append(contentsOf: Self.closeBracket)
            }
        }
    }

    private mutating func appendItem(_ key: String, _ parts: [KeyPart], _ text: String, _ nesting: NestingEncoding) {
        separate()
        appendKey(key, parts, nesting)
        output.append(UInt8(ascii: "="))
        PercentEncoding.append(text, style: style, to: &output)
    }

    /// Appends `key=` and a text that `write` appends as it is: one whose every byte is
    /// unreserved (an integer's digits, a `Bool`'s literal), which percent-encoding would
    /// scan for nothing.
    @inline(__always)
    private mutating func appendItem(_ key: String, unreserved write: (inout [UInt8]) -> Void) {
        separate()
        appendKey(key, [], .brackets)
        output.append(UInt8(ascii: "="))
        write(&output)
    }

    private mutating func appendNil(_ key: String, _ parts: [KeyPart], _ strategy: ResolvedStrategy) {
        guard let text = strategy.nils.text else { return }
        appendItem(key, parts, text, strategy.nesting)
    }

    /// The elements of a flat list of texts, by the array strategy.
    private mutating func appendList(
        _ key: String,
        _ texts: [String],
        _ strategy: ResolvedStrategy,
        parts: [KeyPart] = []
    ) {
        appendList(key, texts, arrays: strategy.arrays, nesting: strategy.nesting, parts: parts)
    }

    private mutating func appendList(
        _ key: String,
        _ texts: [String],
        arrays: ArrayEncoding,
        nesting: NestingEncoding,
        parts: [KeyPart]
    ) {
        guard !texts.isEmpty else { return }
        switch arrays {
        case .repeatKey:
            for text in texts { appendItem(key, parts, text, nesting) }
        case .brackets:
            let keyParts = parts + [.append]
            for text in texts { appendItem(key, keyParts, text, nesting) }
        case .indexed:
            for (index, text) in texts.enumerated() { appendItem(key, parts + [.index(index)], text, nesting) }
        case .commaSeparated:
            separate()
            appendKey(key, parts, nesting)
            output.append(UInt8(ascii: "="))
            for (index, text) in texts.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                PercentEncoding.append(text, style: style, to: &output)
            }
        }
    }

    private static let openBracket: [UInt8] = Array("%5B".utf8)
    private static let closeBracket: [UInt8] = Array("%5D".utf8)

    /// A nested key as a person reads it, before percent-encoding: `filter[tags][0]`, `filter.tags[0]`.
    static func describe(_ key: String, _ parts: [KeyPart], _ strategy: ResolvedStrategy) -> String {
        var text = key
        for part in parts {
            switch part {
            case .member(let member): text += strategy.nesting == .dotted ? ".\(member)" : "[\(member)]"
            case .index(let index): text += "[\(index)]"
            case .append: text += "[]"
            }
        }
        return text
    }
}
