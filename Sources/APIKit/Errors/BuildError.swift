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
    /// A header value holds a control character — U+0000–U+001F other than tab, or U+007F;
    /// CR, LF and NUL among them (<doc:DeclaringRequests#Control-characters>). The value itself is not kept.
    case invalidHeaderValue(name: String, field: String)
    /// The same header name, compared case-insensitively, is declared by more than one
    /// property (or twice by one).
    case duplicateHeader(String, fields: [String])
    /// Body fields of two encodings, such as ``JSON`` and ``Field``, are declared in one
    /// request; the two properties are named.
    case conflictingBodies(_ first: String, _ second: String)
    /// The same key is declared twice in a JSON body.
    case duplicateBodyKey(String, fields: [String])
    /// A query item has an empty key, which would send `=value` with no name; raised for
    /// ``Session/defaultQueryItems``. The value is not kept.
    case emptyQueryKey(field: String)
    /// A query or form value cannot be written as text.
    case unsupportedValue(field: String, key: String, reason: UnsupportedValueReason)
    /// A value's own `encode(to:)` threw.
    case valueEncodingFailed(field: String, key: String, underlying: any Error)
    /// The path has a `{name}` placeholder that no property fills, or fills with `nil`.
    case missingPathValue(_ placeholder: String, path: String)
    /// A ``PathSegment`` property names a placeholder that is not in the path.
    case unusedPathValue(_ name: String, field: String, path: String)
    /// One placeholder is filled by more than one property.
    case duplicatePathValue(_ name: String, fields: [String])
    /// A path value that would not stay one plain segment.
    case invalidPathValue(_ name: String, field: String, reason: InvalidPathValueReason)
    /// A multipart part name holds a control character — U+0000–U+001F other than tab, or
    /// U+007F; CR, LF and NUL among them (<doc:DeclaringRequests#Control-characters>) — which could inject lines into the part's
    /// headers.
    case invalidPartName(_ name: String, field: String)
    /// A multipart filename holds a control character — U+0000–U+001F other than tab, or
    /// U+007F; CR, LF and NUL among them (<doc:DeclaringRequests#Control-characters>).
    case invalidFilename(_ filename: String, field: String, key: String)
    /// A file to upload (``MultipartFile/file(_:filename:mimeType:)``, or a ``FileBody``, whose
    /// `key` is empty) cannot be read; checked when the request is built, so nothing is sent.
    case unreadableFile(field: String, key: String, path: String, reason: UnreadableFileReason)

    /// Why a file to upload cannot be read.
    ///
    /// Carried by ``BuildError/unreadableFile(field:key:path:reason:)``; its description is
    /// the end of the error's sentence.
    public enum UnreadableFileReason: Sendable, Hashable, CustomStringConvertible {
        /// The URL is not a `file:` URL.
        case notFileURL
        /// Nothing exists at the path.
        case missing
        /// The path names a directory, a device or another kind of file that is not a regular file.
        case notRegularFile
        /// The process may not read the file.
        case notReadable

        /// A sentence describing the reason.
        public var description: String {
            switch self {
            case .notFileURL: "it is not a file: URL"
            case .missing: "no file exists there"
            case .notRegularFile: "it is not a regular file"
            case .notReadable: "it cannot be read"
            }
        }
    }
    /// A header that frames the message or belongs to one connection — `Content-Length`,
    /// `Transfer-Encoding`, `TE`, `Trailer`, `Connection`, `Keep-Alive`, `Proxy-Connection` or
    /// `Upgrade` (RFC 9112 section 6, RFC 9110 section 7.6.1) — was set by something other than
    /// the transport, which frames every body from what the body says about itself (its
    /// length). Nothing was sent. The source names where the header came from; its value is not
    /// kept.
    case framingHeader(_ name: String, source: HeaderSource)
    /// A ``RequestOptions/timeout`` or ``RequestOptions/resourceTimeout`` that is zero, negative, infinite or NaN.
    case invalidTimeout(TimeInterval)
    /// A ``RetryPolicy`` that cannot be followed: `maxAttempts` below 1, or a delay or factor
    /// that is negative, infinite or NaN. The associated text names the member and the value.
    case invalidRetryPolicy(String)
    /// A ``TrafficControl`` whose settings cannot be followed: a limit below 1, or a
    /// `maxPause` that is negative, infinite or NaN. The associated text names the setting and
    /// the value.
    case invalidTrafficControl(String)
    /// Reconnecting server-sent events whose settings cannot be followed
    /// (``DecodedResponseStream/reconnectingServerSentEvents(maximumAttempts:initialDelay:)``):
    /// `maximumAttempts` below 1, or an `initialDelay` that is negative, infinite or NaN. The
    /// associated text names the setting and the value.
    case invalidReconnection(String)
    /// A `maximumBufferSize` below 1 byte passed to
    /// ``Request/stream(using:options:maximumBufferSize:)``: no chunk would fit.
    case invalidBufferSize(Int)

    /// Why a value cannot fill a path segment.
    ///
    /// Carried by ``BuildError/invalidPathValue(_:field:reason:)``; its description is the end
    /// of the error's sentence, and never shows the value.
    public enum InvalidPathValueReason: Sendable, Hashable, CustomStringConvertible {
        /// An empty value, which would make an empty segment (`users//posts`).
        case empty
        /// `.` or `..`, which would change the path's meaning.
        case dotSegment
        /// A control character — U+0000–U+001F, tab included, or U+007F; CR, LF and NUL among
        /// them (<doc:DeclaringRequests#Control-characters>).
        case controlCharacter
        /// More than one value (an array), where a segment holds one.
        case multipleValues

        /// A sentence describing the reason.
        public var description: String {
            switch self {
            case .empty: "an empty value would make an empty path segment"
            case .dotSegment: "\".\" and \"..\" would change which path is requested"
            case .controlCharacter: "it holds a control character"
            case .multipleValues: "a path segment holds one value, not a list"
            }
        }
    }

    /// Why a value cannot be written into a query string or a form body.
    ///
    /// Carried by ``BuildError/unsupportedValue(field:key:reason:)``; its description is the
    /// end of the error's sentence.
    public enum UnsupportedValueReason: Sendable, Hashable, CustomStringConvertible {
        /// The value needs nesting that this place cannot express (a path segment holds one
        /// value). The type name is given. In query strings and form bodies objects and lists
        /// are written by ``NestingEncoding`` and ``ArrayEncoding``.
        case nestedValue(String)
        /// An element of a list, at the key given as a person reads it (`filter[tags][0]`), is
        /// itself a `"list"` or an `"object"`, which the array strategy cannot write
        /// unambiguously; only ``ArrayEncoding/indexed`` can (`ids[0][0]=1`).
        case elementNotExpressible(at: String, element: String, arrays: ArrayEncoding)
        /// A `Double`, `Float` or `Decimal` that is infinite or NaN, or a `Date` that is.
        case nonFiniteNumber
        /// A raw body (``BodyEncoding/raw(contentType:)``) whose value is not `Data`; the type
        /// name is given.
        case notData(String)
        /// A file body (``BodyEncoding/file(contentType:)``) whose value is not a `URL`; the
        /// type name is given.
        case notFileURL(String)

        /// A sentence describing the reason.
        public var description: String {
            switch self {
            case .nestedValue(let type):
                "a value of type \(type) needs nesting, which a single value such as a path segment cannot express"
            case .elementNotExpressible(let key, let element, let arrays):
                "the element at \"\(key.debugEscaped)\" is a nested \(element), which ArrayEncoding.\(arrays) cannot "
                    + "write unambiguously; use EncodingStrategy(arrays: .indexed)"
            case .nonFiniteNumber:
                "a non-finite number (NaN or infinity) has no text form"
            case .notData(let type):
                "a raw body must be Data, not \(type)"
            case .notFileURL(let type):
                "a file body must be a file URL, not \(type)"
            }
        }
    }

    /// The property the problem was found in, when there is one.
    public var fields: [String] {
        switch self {
        case .invalidURL, .invalidMethod, .invalidTimeout, .invalidRetryPolicy, .invalidTrafficControl,
            .invalidReconnection, .invalidBufferSize:
            []
        case .framingHeader(_, .property(let field)): [field]
        case .framingHeader(_, .sessionDefaultHeaders): [Session.defaultHeadersField]
        case .framingHeader: []
        case .invalidHeaderName(_, let field), .invalidHeaderValue(_, let field): [field]
        case .duplicateHeader(_, let fields), .duplicateBodyKey(_, let fields): fields
        case .conflictingBodies(let first, let second): [first, second]
        case .unsupportedValue(let field, _, _), .valueEncodingFailed(let field, _, _): [field]
        case .emptyQueryKey(let field): [field]
        case .missingPathValue: []
        case .unusedPathValue(_, let field, _), .invalidPathValue(_, let field, _): [field]
        case .duplicatePathValue(_, let fields): fields
        case .invalidPartName(_, let field), .invalidFilename(_, let field, _), .unreadableFile(let field, _, _, _):
            [field]
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
            "body key \"\(key.debugEscaped)\" is declared more than once, by \(fields.backticked)"
        case .emptyQueryKey(let field):
            "a query item of `\(field)` has an empty key; every item needs a name"
        case .unsupportedValue(let field, let key, let reason):
            "value of \"\(key.debugEscaped)\" (property `\(field)`) cannot be encoded: \(reason)"
        case .valueEncodingFailed(let field, let key, let underlying):
            "value of \"\(key.debugEscaped)\" (property `\(field)`) failed to encode: \(underlying)"
        case .missingPathValue(let placeholder, let path):
            "placeholder {\(placeholder.debugEscaped)} in path \"\(path.debugEscaped)\" has no value"
        case .unusedPathValue(let name, let field, let path):
            "property `\(field)` fills {\(name.debugEscaped)}, which path \"\(path.debugEscaped)\" does not have"
        case .duplicatePathValue(let name, let fields):
            "placeholder {\(name.debugEscaped)} is filled more than once, by \(fields.backticked)"
        case .invalidPathValue(let name, let field, let reason):
            "value for {\(name.debugEscaped)} (property `\(field)`) cannot be a path segment: \(reason)"
        case .invalidPartName(let name, let field):
            "multipart part name \"\(name.debugEscaped)\" of property `\(field)` contains a control character"
        case .invalidFilename(let filename, let field, let key):
            "filename \"\(filename.debugEscaped)\" of part \"\(key.debugEscaped)\" (property `\(field)`) contains a control character"
        case .unreadableFile(let field, let key, let path, let reason):
            // a whole-body file (`@FileBody`) has no part: its key is empty
            "file \"\(path.debugEscaped)\" \(key.isEmpty ? "" : "of part \"\(key.debugEscaped)\" ")(property `\(field)`) "
                + "cannot be uploaded: \(reason)"
        case .framingHeader(let name, let source):
            "header \"\(name.debugEscaped)\" set by \(source.phrase) frames the message, which the transport does from the "
                + "body's length; remove it"
        case .invalidTimeout(let timeout):
            "timeout \(timeout) is not a positive, finite number of seconds"
        case .invalidRetryPolicy(let reason):
            "retry policy cannot be followed: \(reason)"
        case .invalidTrafficControl(let reason):
            "traffic control cannot be followed: \(reason)"
        case .invalidReconnection(let reason):
            "reconnection cannot be followed: \(reason)"
        case .invalidBufferSize(let size):
            "maximumBufferSize \(size) is below 1 byte: no chunk would fit"
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
