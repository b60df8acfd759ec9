/// A property wrapper, or any stored property, that contributes fields to a request's body.
///
/// APIKit finds the properties of a ``RequestConfiguration`` that conform to
/// `BodyProtocol` and writes their ``bodyParameters`` into one body, in
/// declaration order. ``JSON`` and ``Field`` conform; so can your own wrappers:
///
/// ```swift
/// @propertyWrapper
/// struct Timestamp: BodyProtocol {
///     var wrappedValue: Date
///
///     var bodyParameters: [BodyParameter] {
///         [BodyParameter(key: "ts", value: Int(wrappedValue.timeIntervalSince1970), encoding: .json)]
///     }
/// }
/// ```
///
/// A wrapper of your own can add parts to a multipart body: a `.multipart` parameter's value
/// is sent as ``Part`` sends it — a ``MultipartFile`` as a file part, a scalar as a text part,
/// any other `Encodable` value as an `application/json` part:
///
/// ```swift
/// @propertyWrapper
/// struct Attachment: BodyProtocol {
///     var wrappedValue: URL
///
///     var bodyParameters: [BodyParameter] {
///         [BodyParameter(key: "attachment", value: MultipartFile.file(wrappedValue), encoding: .multipart)]
///     }
/// }
/// ```
///
/// A request's body fields must all use one ``BodyEncoding``: mixing `.json`,
/// `.formURLEncoded` and `.multipart` fails with ``BuildError/conflictingBodies(_:_:)``, and a
/// `.wholeJSON` or `.raw` parameter must be the only one.
public protocol BodyProtocol {
    /// The body fields to write, in order; a `nil` value is omitted.
    var bodyParameters: [BodyParameter] { get }
}

/// One declared body field: a key, an `Encodable` value and how the body is encoded.
public struct BodyParameter {
    /// The key: a JSON object member name or a form field name.
    public var key: String
    /// The value; an `Optional` that is `nil` omits the field.
    public var value: any Encodable
    /// How the body that holds this field is encoded.
    public var encoding: BodyEncoding
    /// How the value is written (`Date`, `Bool`, `nil`, and for form bodies arrays and
    /// nesting); members it does not state come from the request's
    /// ``Request/encodingStrategy``, then the defaults. Whole bodies ignore it.
    public var strategy: EncodingStrategy

    /// Creates a body field.
    ///
    /// ```swift
    /// BodyParameter(key: "at", value: Date(), encoding: .json, strategy: .dates(.secondsSince1970))
    /// ```
    ///
    /// - Parameters:
    ///   - key: A JSON object member name or a form field name.
    ///   - value: The value; `nil` omits the field (by default).
    ///   - encoding: How the body is encoded.
    ///   - strategy: How the value is written; by default as the request says.
    public init(key: String, value: any Encodable, encoding: BodyEncoding, strategy: EncodingStrategy = .inherit) {
        self.key = key
        self.value = value
        self.encoding = encoding
        self.strategy = strategy
    }
}

/// How a request body is encoded.
///
/// An open set of static members, so that later kinds of body can be added
/// without breaking `switch` statements in your code.
public struct BodyEncoding: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case json
        case formURLEncoded
        case wholeJSON
        case raw(contentType: String)
        case file(contentType: String?)
        case multipart
    }

    let kind: Kind

    /// One JSON object holding every field: `Content-Type: application/json`.
    public static let json = BodyEncoding(kind: .json)

    /// An HTML form body: `Content-Type: application/x-www-form-urlencoded; charset=utf-8`.
    public static let formURLEncoded = BodyEncoding(kind: .formURLEncoded)

    /// A `multipart/form-data` body (RFC 7578) with one part per parameter, in order; the key
    /// is the part's name. The value may be a ``MultipartFile`` (a file part, streamed from
    /// disk for a file), a scalar (a text part), `Data` or any other `Encodable` value (an
    /// `application/json` part); see ``Part``. Sent with
    /// `Content-Type: multipart/form-data; boundary=…`.
    public static let multipart = BodyEncoding(kind: .multipart)

    /// The parameter's value is the whole body, encoded as one JSON value — an object, an
    /// array or a fragment such as a string: `Content-Type: application/json`. The key is
    /// not used, and no other body parameter may be declared.
    public static let wholeJSON = BodyEncoding(kind: .wholeJSON)

    /// The parameter's value, which must be `Data`, is the whole body, sent as it is with the
    /// given `Content-Type`. The key is not used, and no other body parameter may be declared.
    ///
    /// - Parameter contentType: The media type of the bytes, such as `"image/png"`.
    /// - Returns: The encoding.
    public static func raw(contentType: String) -> BodyEncoding {
        BodyEncoding(kind: .raw(contentType: contentType))
    }

    /// The parameter's value, which must be a `file:` `URL`, names a file whose contents are the
    /// whole body, read from disk while the request is sent and never held in memory; sent
    /// with `Content-Length` (the file's size when the request is built) and the given
    /// `Content-Type`. The key is not used, and no other body parameter may be declared. See
    /// ``FileBody``.
    ///
    /// - Parameter contentType: The media type of the file; `nil` for the one its extension
    ///   implies (``MultipartFile/mimeType(forPathExtension:)``).
    /// - Returns: The encoding.
    public static func file(contentType: String? = nil) -> BodyEncoding {
        BodyEncoding(kind: .file(contentType: contentType))
    }

    /// The name of the encoding: `"json"`, `"form-urlencoded"`, `"whole JSON"`,
    /// `"raw <content type>"`, `"file"` or `"multipart/form-data"`.
    public var description: String {
        switch kind {
        case .json: "json"
        case .formURLEncoded: "form-urlencoded"
        case .wholeJSON: "whole JSON"
        case .raw(let contentType): "raw \(contentType.debugEscaped)"
        case .file: "file"
        case .multipart: "multipart/form-data"
        }
    }

    /// The `Content-Type` header value for a body of this encoding.
    var contentType: String {
        switch kind {
        case .json, .wholeJSON: "application/json"
        case .formURLEncoded: "application/x-www-form-urlencoded; charset=utf-8"
        case .raw(let contentType): contentType
        case .file(let contentType): contentType ?? MIMETypeTable.fallback
        case .multipart: "multipart/form-data"
        }
    }

    /// Whether one parameter is the whole body.
    var isWhole: Bool {
        switch kind {
        case .wholeJSON, .raw, .file: true
        case .json, .formURLEncoded, .multipart: false
        }
    }
}
