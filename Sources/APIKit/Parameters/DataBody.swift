/// Declares the whole request body as bytes with a content type.
///
/// ```swift
/// struct UploadAvatarRequest: JSONDecodableRequest, RequestConfiguration {
///     @DataBody("image/png") var image: Data? = nil
///     // ...
/// }
/// ```
///
/// The bytes are sent as they are with the given `Content-Type` (a ``Header`` named
/// `Content-Type` replaces it); `nil` sends no body. It must be the request's only body
/// parameter: together with ``JSON``, ``Field`` or another whole body it fails with
/// ``BuildError/conflictingBodies(_:_:)``. A content type holding a control character (CR, LF,
/// NUL, any other of U+0000–U+001F but tab, or DEL: <doc:DeclaringRequests#Control-characters>) fails with
/// ``BuildError/invalidHeaderValue(name:field:)``.
@propertyWrapper
public struct DataBody: BodyProtocol, Sendable, Hashable {
    /// The media type of the bytes, sent as `Content-Type`.
    let contentType: String
    /// The body; `nil` sends none.
    public var wrappedValue: Data?

    /// Declares the whole body as bytes.
    ///
    /// - Parameters:
    ///   - wrappedValue: The bytes; `nil` sends no body.
    ///   - contentType: Their media type, such as `"image/png"` or `"application/octet-stream"`.
    public init(wrappedValue: Data?, _ contentType: String) {
        self.contentType = contentType
        self.wrappedValue = wrappedValue
    }

    /// The body, as one `.raw` parameter.
    public var bodyParameters: [BodyParameter] {
        [BodyParameter(key: "", value: wrappedValue, encoding: .raw(contentType: contentType))]
    }
}
