/// The rules a declared header field must pass, written once for every place that declares
/// headers: a configuration's properties, whichever way they are read, and
/// ``Session/defaultHeaders``.
///
/// Each name is a token (RFC 9110) and not one of the headers that frame the message, which
/// are the transport's (``HTTPSyntax/isFramingHeader(_:)``); each value holds no control
/// character (``HTTPSyntax/isValidFieldValue(_:)``); and no two names are the same,
/// compared case-insensitively. The first field that breaks one fails the build with a
/// ``BuildError`` naming where it was declared.
enum HeaderRules {
    /// Checks declared header fields, in order: the name and value of each, then whether two
    /// names are the same.
    ///
    /// - Parameters:
    ///   - count: How many fields there are.
    ///   - name: The name of a field, by position.
    ///   - value: Its value.
    ///   - field: Where it was declared: the property, or the place named by `source`.
    ///   - source: `nil` for a configuration's properties, each named by `field`; otherwise
    ///     the one place every field comes from, such as ``HeaderSource/sessionDefaultHeaders``.
    /// - Throws: ``BuildError/invalidHeaderName(_:field:)``, ``BuildError/framingHeader(_:source:)``,
    ///   ``BuildError/invalidHeaderValue(name:field:)`` or ``BuildError/duplicateHeader(_:fields:)``
    ///   (naming both properties, or the one place).
    @inline(__always)
    static func check(
        count: Int,
        name: (Int) -> String,
        value: (Int) -> String,
        field: (Int) -> String,
        source: HeaderSource? = nil
    ) throws(BuildError) {
        for index in 0..<count {
            try checkName(name(index), field: field(index), source: source)
            try checkValue(value(index), name: name(index), field: field(index))
        }
        if let (earlier, later) = DuplicateKeys.first(count: count, caseInsensitive: true, key: name) {
            throw .duplicateHeader(
                name(later), fields: source == nil ? [field(earlier), field(later)] : [field(later)])
        }
    }

    /// Whether `names` pass every rule about names: the verdict a configuration type's
    /// declared names have once for all its values (``URLRequestSerializer``).
    static func acceptsNames(_ names: [String]) -> Bool {
        (try? check(count: names.count, name: { names[$0] }, value: { _ in "" }, field: { _ in "" })) != nil
    }

    /// Checks that a header value holds no control character (tab excepted).
    ///
    /// - Parameters:
    ///   - name: The header's name, read only to report a failure.
    ///   - field: Where it was declared, read only to report a failure.
    /// - Throws: ``BuildError/invalidHeaderValue(name:field:)``.
    @inline(__always)
    static func checkValue(
        _ value: String,
        name: @autoclosure () -> String,
        field: @autoclosure () -> String
    ) throws(BuildError) {
        guard HTTPSyntax.isValidFieldValue(value) else { throw .invalidHeaderValue(name: name(), field: field()) }
    }

    /// Checks that a header name is a token that does not frame the message.
    ///
    /// - Throws: ``BuildError/invalidHeaderName(_:field:)`` or ``BuildError/framingHeader(_:source:)``.
    private static func checkName(_ name: String, field: String, source: HeaderSource?) throws(BuildError) {
        guard HTTPSyntax.isToken(name) else { throw .invalidHeaderName(name, field: field) }
        guard !HTTPSyntax.isFramingHeader(name) else { throw .framingHeader(name, source: source ?? .property(field)) }
    }
}
