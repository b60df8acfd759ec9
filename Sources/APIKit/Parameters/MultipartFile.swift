/// A file sent as one part of a `multipart/form-data` body: a file on disk, streamed when
/// the request is sent, or bytes in memory — with the filename and media type the server sees.
///
/// ```swift
/// struct UploadRequest: JSONDecodableRequest, RequestConfiguration {
///     @FilePart("avatar") var avatar: MultipartFile? = nil
///     // ...
/// }
/// let photo = UploadRequest(avatar: .file(URL(fileURLWithPath: "/tmp/me.png")))
/// // Content-Disposition: form-data; name="avatar"; filename="me.png"
/// // Content-Type: image/png
/// let notes = UploadRequest(avatar: .data(Data("hi".utf8), filename: "notes.txt"))
/// ```
///
/// The filename defaults to the file URL's last path component, and the media type to the
/// one a built-in table gives for the filename's extension, compared case-insensitively
/// (`image/png` for `png`, `application/octet-stream` for an unknown one; ``mimeType`` tells
/// which was chosen); both can be given instead.
///
/// A file on disk is never read into memory: building the request only checks that it is a
/// readable regular file and notes its size, and its bytes are read in small chunks while
/// the request is sent. A file that cannot be read fails the build with
/// ``BuildError/unreadableFile(field:key:path:reason:)``.
///
/// `MultipartFile` is `Encodable` only so that it can be the value of a ``BodyParameter``;
/// encoding it anywhere but in a multipart body (for example as ``JSON``) throws.
public struct MultipartFile: Sendable, Hashable, Encodable {
    /// Where the bytes come from.
    enum Source: Sendable, Hashable {
        case file(URL)
        case data(Data)
    }

    let source: Source

    /// The filename sent in the part's `Content-Disposition`.
    let filename: String
    /// The media type sent as the part's `Content-Type`.
    public let mimeType: String

    /// A file on disk, streamed when the request is sent.
    ///
    /// - Parameters:
    ///   - url: A `file:` URL.
    ///   - filename: The filename to send; by default the URL's last path component.
    ///   - mimeType: The media type to send; by default the one for the filename's extension.
    /// - Returns: The file part's value.
    public static func file(_ url: URL, filename: String? = nil, mimeType: String? = nil) -> MultipartFile {
        let name = filename ?? url.lastPathComponent
        return MultipartFile(
            source: .file(url), filename: name, mimeType: mimeType ?? MIMETypeTable.mimeType(forFilename: name))
    }

    /// Bytes in memory, sent as a file.
    ///
    /// - Parameters:
    ///   - data: The file's contents.
    ///   - filename: The filename to send.
    ///   - mimeType: The media type to send; by default the one for the filename's extension.
    /// - Returns: The file part's value.
    public static func data(_ data: Data, filename: String, mimeType: String? = nil) -> MultipartFile {
        MultipartFile(
            source: .data(data), filename: filename, mimeType: mimeType ?? MIMETypeTable.mimeType(forFilename: filename)
        )
    }

    /// Throws: a file has no representation outside a multipart body.
    ///
    /// - Parameter encoder: The encoder of a JSON, query or form value (unused).
    /// - Throws: `EncodingError.invalidValue`, always.
    public func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            self,
            EncodingError.Context(
                codingPath: encoder.codingPath,
                debugDescription: "a MultipartFile can only be sent in a multipart/form-data body (@FilePart or @Part)"
            )
        )
    }
}
