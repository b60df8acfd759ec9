/// Declares a file part of the request's `multipart/form-data` body; `nil` sends nothing, unless
/// the request's ``NilEncoding`` sends nils (then a text part, empty or `null`).
///
/// ```swift
/// struct UploadAvatarRequest: JSONDecodableRequest, RequestConfiguration {
///     @Part("user") var user = ""
///     @FilePart("avatar") var avatar: MultipartFile? = nil
///     @FilePart("thumbnail") var thumbnail: MultipartFile? = nil
///     @FilePart("attachments") var attachments: [MultipartFile] = []
///     // ...
/// }
/// let request = UploadAvatarRequest(user: "kishi", avatar: .file(URL(fileURLWithPath: "/tmp/me.png")))
/// // --APIKit-…
/// // Content-Disposition: form-data; name="avatar"; filename="me.png"
/// // Content-Type: image/png
/// //
/// // <the file's bytes, read from disk while the request is sent>
/// ```
///
/// The value is a ``MultipartFile``, an optional one (`nil` omits the part) or an array of
/// them (one part per file, all with the same name). A file on disk is streamed, never loaded
/// whole into memory. The filename is sent in UTF-8 as browsers do, with `"` written as `%22`
/// (RFC 7578, section 4.2).
///
/// Together with ``JSON``, ``Field`` or a whole body it fails with
/// ``BuildError/conflictingBodies(_:_:)``; a file that is missing, not a regular file or not
/// readable fails with ``BuildError/unreadableFile(field:key:path:reason:)``; a filename
/// holding a control character (CR, LF, NUL, any other of U+0000–U+001F but tab, or DEL:
/// <doc:DeclaringRequests#Control-characters>) fails with ``BuildError/invalidFilename(_:field:key:)``. Either way nothing is sent.
@propertyWrapper
public struct FilePart<Value: Encodable & Sendable>: BodyProtocol, Sendable {
    /// The part's name, sent in its `Content-Disposition`.
    let name: String
    /// The file or files.
    public var wrappedValue: Value

    /// Declares a file part.
    ///
    /// - Parameters:
    ///   - wrappedValue: The file.
    ///   - name: The part's name.
    public init(wrappedValue: MultipartFile, _ name: String) where Value == MultipartFile {
        self.name = name
        self.wrappedValue = wrappedValue
    }

    /// Declares an optional file part; `nil` sends nothing, unless the request's ``NilEncoding``
    /// sends nils (then a text part, empty or `null`).
    ///
    /// A property wrapper declared with arguments needs an initial value, so a file the caller
    /// passes in is usually declared `@FilePart("avatar") var avatar: MultipartFile? = nil` and
    /// set through the memberwise initializer: `UploadAvatarRequest(avatar: .file(url))`.
    ///
    /// - Parameters:
    ///   - wrappedValue: The file, or `nil`.
    ///   - name: The part's name.
    public init(wrappedValue: MultipartFile?, _ name: String) where Value == MultipartFile? {
        self.name = name
        self.wrappedValue = wrappedValue
    }

    /// Declares several files under one name, one part each.
    ///
    /// - Parameters:
    ///   - wrappedValue: The files; an empty array sends nothing.
    ///   - name: The name of every part.
    public init(wrappedValue: [MultipartFile], _ name: String) where Value == [MultipartFile] {
        self.name = name
        self.wrappedValue = wrappedValue
    }

    /// The declared part.
    public var bodyParameters: [BodyParameter] {
        [BodyParameter(key: name, value: wrappedValue, encoding: .multipart)]
    }
}

extension FilePart: Equatable where Value: Equatable {}
extension FilePart: Hashable where Value: Hashable {}
