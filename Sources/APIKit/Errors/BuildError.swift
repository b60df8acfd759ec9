/// Why a request could not be built from its declaration.
///
/// Building happens before anything is sent, so a `BuildError` means no traffic
/// was caused. Each case names the Swift property (`field`, without the `_` that
/// property wrappers add) that holds the problem. Header values are never kept
/// in the error, so it is safe to log.
public enum BuildError: Error, Sendable {
    /// `base` and `path` do not make a URL with a scheme and a host.
    case invalidURL(base: String, path: String)
    /// The method is not an HTTP token (for example it contains a space).
    case invalidMethod(HTTPMethod)
    /// A header name is not an HTTP token.
    case invalidHeaderName(String, field: String)
    /// A header value holds CR, LF, NUL or another control character other than tab.
    /// The value itself is not kept.
    case invalidHeaderValue(name: String, field: String)
    /// The same header name, compared case-insensitively, is declared by more than one
    /// property (or twice by one).
    case duplicateHeader(String, fields: [String])
    /// Body fields of two encodings, such as ``JSON`` and ``Field``, are declared in one
    /// request; the two properties are named.
    case conflictingBodies(_ first: String, _ second: String)
    /// The same key is declared twice in a JSON body.
    case duplicateBodyKey(String, fields: [String])
    /// A query or form value cannot be written as text.
    case unsupportedValue(field: String, key: String, reason: UnsupportedValueReason)
    /// A value's own `encode(to:)` threw.
    case valueEncodingFailed(field: String, key: String, underlying: any Error)

    /// Why a value cannot be written into a query string or a form body.
    public enum UnsupportedValueReason: Sendable, Hashable, CustomStringConvertible {
        /// The value needs nesting — a keyed container or an array inside an array.
        /// The type name is given.
        case nestedValue(String)
        /// A `Double` or `Float` that is infinite or NaN.
        case nonFiniteNumber

        /// A sentence describing the reason.
        public var description: String {
            switch self {
            case .nestedValue(let type):
                "a value of type \(type) needs nesting, which query and form encoding cannot express"
            case .nonFiniteNumber:
                "a non-finite number (NaN or infinity) has no text form"
            }
        }
    }

    /// The property the problem was found in, when there is one.
    public var fields: [String] {
        switch self {
        case .invalidURL, .invalidMethod: []
        case .invalidHeaderName(_, let field), .invalidHeaderValue(_, let field): [field]
        case .duplicateHeader(_, let fields), .duplicateBodyKey(_, let fields): fields
        case .conflictingBodies(let first, let second): [first, second]
        case .unsupportedValue(let field, _, _), .valueEncodingFailed(let field, _, _): [field]
        }
    }
}

extension BuildError: CustomStringConvertible {
    /// A sentence naming the problem and the properties involved; never a header value.
    public var description: String {
        switch self {
        case .invalidURL(let base, let path):
            "base \"\(RequestContext.redacted(base))\" and path \"\(path.debugEscaped)\" do not make a URL with a scheme and a host"
        case .invalidMethod(let method):
            "method \"\(method.rawValue.debugEscaped)\" is not a valid HTTP token"
        case .invalidHeaderName(let name, let field):
            "header name \"\(name.debugEscaped)\" of property `\(field)` is not a valid HTTP token"
        case .invalidHeaderValue(let name, let field):
            "value of header \"\(name)\" of property `\(field)` contains CR, LF, NUL or another control character"
        case .duplicateHeader(let name, let fields):
            "header \"\(name)\" is declared more than once, by \(fields.backticked)"
        case .conflictingBodies(let first, let second):
            "properties `\(first)` and `\(second)` declare bodies of different encodings; a request has one body"
        case .duplicateBodyKey(let key, let fields):
            "body key \"\(key)\" is declared more than once, by \(fields.backticked)"
        case .unsupportedValue(let field, let key, let reason):
            "value of \"\(key)\" (property `\(field)`) cannot be encoded: \(reason)"
        case .valueEncodingFailed(let field, let key, let underlying):
            "value of \"\(key)\" (property `\(field)`) failed to encode: \(underlying)"
        }
    }
}

extension String {
    /// The string with control characters escaped, safe to print on one line.
    var debugEscaped: String {
        String(String(reflecting: self).dropFirst().dropLast())
    }
}

extension [String] {
    fileprivate var backticked: String {
        map { "`\($0)`" }.joined(separator: " and ")
    }
}
