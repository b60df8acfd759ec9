/// Declares a member of the request's JSON body; `nil` sends nothing.
///
/// ```swift
/// struct CreatePostRequest: JSONDecodableRequest, RequestConfiguration {
///     @JSON("title") var title = ""
///     @JSON("tags") var tags: [String] = []
///     @JSON("draft") var draft: Bool? = nil
///     // ...
/// }
/// // body: {"title":"…","tags":[…]}
/// ```
///
/// All `@JSON` properties of a request are merged into one JSON object, in
/// declaration order, sent with `Content-Type: application/json`. Each value keeps
/// its own structure (nested `Encodable` types, arrays); the keys of nested objects
/// are sorted, so the body is the same every time. Dates are written as
/// ISO 8601 strings and `/` is not escaped. A request with `@JSON` properties sends
/// an object even when every value is `nil` (`{}`).
///
/// The date, bool and nil members of an ``EncodingStrategy`` — the field's, else the
/// request's — apply; arrays and objects stay JSON arrays and objects:
///
/// ```swift
/// @JSON("assignee", strategy: .init(nils: .null)) var assignee: String? = nil    // "assignee":null
/// @JSON("due", strategy: .init(dates: .millisecondsSince1970)) var due = Date()  // "due":1714564800000
/// @JSON("flags", strategy: .init(bools: .numeric)) var flags = ["beta": true]    // "flags":{"beta":1}
/// ```
///
/// Declaring `@JSON` together with ``Field`` fails with ``BuildError/conflictingBodies(_:_:)``;
/// one key declared twice fails with ``BuildError/duplicateBodyKey(_:fields:)``;
/// a value whose encoding throws fails with ``BuildError/valueEncodingFailed(field:key:underlying:)``.
@propertyWrapper
public struct JSON<Value: Encodable & Sendable>: BodyProtocol {
    /// The member name in the JSON object.
    let key: String
    /// The value.
    public var wrappedValue: Value
    /// How the value is written; members it does not state come from the request's
    /// ``Request/encodingStrategy``, then the defaults.
    let strategy: EncodingStrategy

    /// Declares a JSON body member.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value; `nil` omits the member.
    ///   - key: The member name.
    ///   - strategy: How the value is written, such as `.init(dates: .secondsSince1970)`; by default
    ///     as the request's ``Request/encodingStrategy`` says.
    public init(wrappedValue: Value, _ key: String, strategy: EncodingStrategy = .inherit) {
        self.key = key
        self.wrappedValue = wrappedValue
        self.strategy = strategy
    }

    /// The declared member.
    public var bodyParameters: [BodyParameter] {
        [BodyParameter(key: key, value: wrappedValue, encoding: .json, strategy: strategy)]
    }
}

extension JSON: Sendable {}
extension JSON: Equatable where Value: Equatable {}
extension JSON: Hashable where Value: Hashable {}
