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
