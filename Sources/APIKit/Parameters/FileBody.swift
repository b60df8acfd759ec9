/// Declares a file on disk as the whole request body: sent with its `Content-Length` and
/// content type, read from disk while it is sent, never held in memory.
///
/// The case of an S3 presigned `PUT`, or any API that takes a raw upload:
///
/// ```swift
/// struct PutObjectRequest: Request, RequestConfiguration {
///     typealias Response = Data
///     let presignedURL: URL
///     @FileBody("application/octet-stream") var file: URL? = nil
///
///     var base: URL { presignedURL }
///     var path: String { "" }
///     var method: HTTPMethod { .put }
///     var parser: RawDataParser { RawDataParser() }
/// }
/// let put = PutObjectRequest(presignedURL: url, file: URL(fileURLWithPath: "/tmp/backup.tar"))
/// _ = try await put.response(using: Session(), progress: { print($0.bytesSent) })
/// ```
///
/// The value is a `file:` URL; `nil` sends no body. Building the request checks that the file
/// is a readable regular file and notes its size, which is sent as `Content-Length`; a file that
/// cannot be read fails with ``BuildError/unreadableFile(field:key:path:reason:)`` and nothing
/// is sent. The content type defaults to the one the file's extension implies
/// (the table ``MultipartFile`` uses); a ``Header`` named `Content-Type` replaces
/// it. Each attempt of a retried request reads the file again from its start, and the transfer
/// reports upload progress and can be cancelled like any other.
///
/// It must be the request's only body parameter: together with another body it fails with
/// ``BuildError/conflictingBodies(_:_:)``.
@propertyWrapper
public struct FileBody: BodyProtocol, Sendable, Hashable {
    /// The media type of the file, sent as `Content-Type`; `nil` for the one its extension implies.
    let contentType: String?
    /// The file; `nil` sends no body.
    public var wrappedValue: URL?

    /// Declares a file as the whole body.
    ///
    /// - Parameters:
    ///   - wrappedValue: A `file:` URL; `nil` sends no body.
    ///   - contentType: The file's media type, such as `"image/png"`; by default the one its
    ///     extension implies (`application/octet-stream` for an unknown one).
    public init(wrappedValue: URL?, _ contentType: String? = nil) {
        self.contentType = contentType
        self.wrappedValue = wrappedValue
    }

    /// The body, as one ``BodyEncoding/file(contentType:)`` parameter.
    public var bodyParameters: [BodyParameter] {
        [BodyParameter(key: "", value: wrappedValue, encoding: .file(contentType: contentType))]
    }
}
