/// A request whose response is decoded from a JSON body.
///
/// Conforming types get ``Request/parser`` (a ``APIKitParsers/JSONParser`` with a default
/// `JSONDecoder`) and ``Request/response(from:urlResponse:)`` for free: declare
/// a `Decodable` `Response` and the endpoint.
///
/// ```swift
/// struct SetPushRequest: JSONDecodableRequest, RequestConfiguration {
///     @Header("TOKEN") var accessToken = nil
///     @Field("push_system_msg") var pushSystemMessage: Bool? = nil
///
///     struct Response: Codable {
///         var code: Int
///         var msg: String?
///     }
///
///     let base: URL = URL(string: "https://dev-api.thuhole.com")!
///     let path: String = "v3/config/set_push"
///     let method: HTTPMethod = .post
/// }
/// ```
///
/// To decode with your own `JSONDecoder` (a key or date strategy), implement
/// `parser` yourself: `var parser: JSONParser<Response> { JSONParser(decoder: myDecoder) }`.
public protocol JSONDecodableRequest: Request where Response: Decodable, DataParser == JSONParser<Response> {}

extension JSONDecodableRequest {
    /// A ``JSONParser`` for ``Request/Response`` with a default `JSONDecoder`.
    public var parser: JSONParser<Response> {
        JSONParser()
    }
}
