/// Declares a part of the request's `multipart/form-data` body; `nil` sends nothing.
///
/// ```swift
/// struct UploadRequest: JSONDecodableRequest, RequestConfiguration {
///     @Part("title") var title = ""
///     @Part("tags") var tags: [String] = []
///     @Part("meta") var meta: Metadata? = nil     // an Encodable struct
///     @FilePart("file") var file: MultipartFile? = nil
///     // ...
/// }
/// // --APIKit-…
/// // Content-Disposition: form-data; name="title"
/// //
/// // Holiday
/// // --APIKit-…
/// ```
///
/// What a value becomes:
/// - a scalar is a text part, written as a ``Query`` value is (by default `Bool` as
///   `true`/`false`, dates as ISO 8601; numbers, URLs and UUIDs as text), in UTF-8 with no
///   `Content-Type` (multipart's default, `text/plain`);
/// - an array of scalars is one text part per element, all with the same name;
/// - `nil` sends no part, unless the ``EncodingStrategy`` says `nils: .empty` (an empty part)
///   or `nils: .null` (a part holding `null`);
/// - `Data` is a part of type `application/octet-stream` without a filename;
/// - a ``MultipartFile`` (or an array of them) is a file part, as ``FilePart`` sends it;
/// - any other `Encodable` value (a struct, a dictionary, an array of structs) is one part of
///   type `application/json`, encoded as ``JSON`` encodes a member.
///
/// The `Bool`, `Date` and `nil` members of the field's `strategy`, or else of the request's
/// ``Request/encodingStrategy``, apply to text parts and JSON parts alike
/// (`@Part("at", strategy: .init(dates: .secondsSince1970)) var at = Date()`); array and nesting
/// strategies do not, since parts are not flattened into keys.
///
/// Parts are written in declaration order, and several may share a name. The body is sent
/// with `Content-Type: multipart/form-data; boundary=…` (RFC 7578).
///
/// Declaring `@Part` together with ``JSON``, ``Field`` or a whole body fails with
/// ``BuildError/conflictingBodies(_:_:)``; a name holding a control character (CR, LF, NUL,
/// any other of U+0000–U+001F but tab, or DEL: <doc:DeclaringRequests#Control-characters>) fails with
/// ``BuildError/invalidPartName(_:field:)`` before anything is sent. A `"` in the name is sent as `%22`.
@propertyWrapper
public struct Part<Value: Encodable & Sendable>: BodyProtocol {
    /// The part's name, sent in its `Content-Disposition`.
    let name: String
    /// The value.
    public var wrappedValue: Value
    /// How the value is written; members it leaves `nil` come from the request's strategy.
    let strategy: EncodingStrategy

    /// Declares a multipart body part.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value; `nil` omits the part.
    ///   - name: The part's name.
    ///   - strategy: How `Bool`, `Date` and `nil` values are written; by default as the request says.
    public init(wrappedValue: Value, _ name: String, strategy: EncodingStrategy = .inherit) {
        self.name = name
        self.wrappedValue = wrappedValue
        self.strategy = strategy
    }

    /// The declared part.
    public var bodyParameters: [BodyParameter] {
        [BodyParameter(key: name, value: wrappedValue, encoding: .multipart, strategy: strategy)]
    }
}

extension Part: Sendable {}
extension Part: Equatable where Value: Equatable {}
extension Part: Hashable where Value: Hashable {}
