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
    ///   implies (the table ``MultipartFile`` uses).
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
