/// A type whose properties declare the parameters of a request.
///
/// `RequestConfiguration` has no requirements: it marks the types whose stored
/// properties APIKit reads when it builds a request (with `Mirror`, or for structs
/// with an equivalent layout found once per type). Properties wrapped by ``Header``,
/// ``HeaderDict``, ``Query``, ``QueryDict``, ``KeyQuery``, ``JSON``, ``Field`` or
/// ``PathSegment`` — or by your own wrappers conforming to ``HeaderProtocol``,
/// ``QueryProtocol``, ``BodyProtocol`` or ``PathProtocol`` — become headers, query
/// items, body fields and path segments, in declaration order. Every other property
/// (those of `Optional` type too), computed properties and `lazy` storage are ignored.
///
/// A request can be its own configuration, and then needs no `configuration` property
/// (``Request/configuration`` defaults to the request):
///
/// ```swift
/// struct SearchRequest: JSONDecodableRequest, RequestConfiguration {
///     @Query("q") var query: String? = nil
///     @Header("Authorization") var authorization: String? = nil
///
///     struct Response: Decodable { var items: [String] }
///
///     let base = URL(string: "https://api.example.com")!
///     let path = "search"
///     let method: HTTPMethod = .get
/// }
/// ```
///
/// or use a separate type, which several requests can share:
///
/// ```swift
/// struct Paging: RequestConfiguration {
///     @Query("page") var page = 1
///     @Query("per_page") var perPage = 20
/// }
/// ```
///
/// For a class, the stored properties of its superclasses count too.
public protocol RequestConfiguration {}
