/// An HTTP request declared as a type: where it goes, what it sends and what it returns.
///
/// Conform a type to `Request` by naming the endpoint (``base``, ``path``,
/// ``method``), the parameters (``configuration``, a ``RequestConfiguration``
/// whose wrapped properties become headers, query items and body fields), and
/// how the body is read (``parser`` and ``response(from:urlResponse:)``). Then
/// call ``perform(session:completionQueue:completion:)`` or `try await` ``response(using:options:progress:)``.
///
/// ```swift
/// struct UserRequest: Request, RequestConfiguration {
///     @Query("id") var id: Int? = nil
///
///     let base = URL(string: "https://api.example.com/v1")!
///     let path = "user"
///     let method: HTTPMethod = .get
///     var parser: StringParser { StringParser() }
///
///     func response(from object: String, urlResponse: URLResponse) throws -> String {
///         object
///     }
/// }
/// ```
///
/// A request passes through these stages, each of which can fail with its own
/// ``RequestError`` case:
///
/// 1. the configuration is encoded into a `URLRequest`;
/// 2. ``intercept(urlRequest:)`` may change or reject it;
/// 3. the request is sent;
/// 4. ``intercept(urlResponse:)`` checks the response — by default it rejects a
///    status code outside `200..<300` before the body is parsed;
/// 5. ``parser`` turns the body into a ``APIKitParsers/Parser/Object``;
/// 6. ``response(from:urlResponse:)`` turns that into the ``Response``.
///
/// Performed through a ``Session`` (``Request/response(using:options:progress:)``,
/// ``Request/perform(using:options:progress:completion:)``), the session's default headers and the
/// ``RequestOptions`` are applied right after step 1, and its ``Interceptor``s adapt the
/// request after step 2 and inspect the response before step 4.
///
/// Requests are values that may be performed from any thread, so they are `Sendable`.
public protocol Request: Sendable {
    /// The type whose wrapped properties declare the request's parameters.
    ///
    /// Inferred from ``configuration``; for a request that declares none it is the request
    /// itself, which must then conform to ``RequestConfiguration`` (the compiler says so if not).
    associatedtype Configuration: RequestConfiguration = Self
    /// The value a successful request produces.
    associatedtype Response
    /// The parser that reads the response body.
    associatedtype DataParser: Parser

    /// The URL that ``path`` is appended to. It may carry a path prefix
    /// (`https://host/api/v2`) and a query, both of which are kept.
    var base: URL { get }

    /// The path appended to ``base``, with or without a leading `/`. An empty path
    /// leaves ``base`` as it is. `{name}` placeholders are filled by ``PathSegment`` properties
    /// of the configuration. Characters that are not allowed in a URL path are
    /// percent-encoded; existing `%XX` escapes are kept.
    var path: String { get }

    /// The HTTP method.
    var method: HTTPMethod { get }

    /// The value whose wrapped properties become headers, query items and body fields.
    /// A request that is itself a ``RequestConfiguration`` gets this from a default that returns
    /// the request; writing `var configuration: Self { self }` still compiles.
    var configuration: Configuration { get }

    /// The parser that reads the response body. Its ``APIKitParsers/Parser/contentType`` is sent as
    /// the `Accept` header unless the configuration declares an `Accept` header.
    var parser: DataParser { get }

    /// Turns the parsed body into the request's ``Response``.
    ///
    /// - Parameters:
    ///   - object: The value the ``parser`` produced.
    ///   - urlResponse: The response it came with.
    /// - Returns: The value delivered to the caller.
    /// - Throws: Any error; it is reported as ``RequestError/responseConversionFailed(_:response:context:)``.
    func response(from object: DataParser.Object, urlResponse: URLResponse) throws -> Response

    /// Adapts or rejects the `URLRequest` after it is built and before it is sent.
    ///
    /// The default implementation returns the request unchanged.
    ///
    /// ```swift
    /// func intercept(urlRequest: URLRequest) throws -> URLRequest {
    ///     var request = urlRequest
    ///     request.timeoutInterval = 10
    ///     return request
    /// }
    /// ```
    ///
    /// - Parameter urlRequest: The request built from the declaration.
    /// - Returns: The request to send.
    /// - Throws: Any error, to stop the request before it is sent; it is reported as
    ///   ``RequestError/requestInterceptorFailed(_:context:)``.
    func intercept(urlRequest: URLRequest) throws -> URLRequest

    /// Checks the response before its body is parsed.
    ///
    /// The default implementation calls ``validateStatusCode(of:acceptable:)``, which rejects
    /// an `HTTPURLResponse` whose status code is outside `200..<300`; that is reported
    /// as ``RequestError/unacceptableStatusCode(_:body:response:context:)`` carrying the
    /// body. Override it to accept other codes, and call
    /// ``validateStatusCode(of:acceptable:)`` to keep the default check.
    ///
    /// - Parameter urlResponse: The response received.
    /// - Throws: Any error, to stop the request before parsing; the status check of
    ///   ``validateStatusCode(of:acceptable:)`` is reported as
    ///   ``RequestError/unacceptableStatusCode(_:body:response:context:)``, any other error as ``RequestError/responseInterceptorFailed(_:body:response:context:)``.
    func intercept(urlResponse: URLResponse) throws

    /// How the values of the query string and the body are written — arrays, nested objects,
    /// `Bool`, `Date` and `nil` — unless a field states otherwise.
    ///
    /// The default implementation states nothing, which means ``ArrayEncoding/repeatKey``,
    /// ``NestingEncoding/brackets``, ``BoolEncoding/literal``, ``DateEncoding/iso8601`` and
    /// ``NilEncoding/omit``. A field's own strategy (`@Query("ids", strategy: …)`) overrides
    /// this one member by member.
    ///
    /// ```swift
    /// var encodingStrategy: EncodingStrategy { .init(bools: .numeric, dates: .millisecondsSince1970) }
    /// ```
    var encodingStrategy: EncodingStrategy { get }

    /// The timeout and cache policy for every request of this type.
    ///
    /// They win over the ``Session``'s options and lose to those given for one call,
    /// member by member (see ``RequestOptions``). The default sets nothing.
    ///
    /// ```swift
    /// var options: RequestOptions { RequestOptions(timeout: 120) }   // a slow report
    /// ```
    var options: RequestOptions { get }

    /// When requests of this type are sent again after a failure; `nil` (the default) for the
    /// ``Session``'s ``Session/retryPolicy``.
    ///
    /// ```swift
    /// var retryPolicy: RetryPolicy? { .never }   // a payment: never send twice
    /// ```
    var retryPolicy: RetryPolicy? { get }

    /// Reads the error payload from the body of a rejected response of this type; `nil` (the
    /// default) for the ``Session``'s ``Session/errorBodyDecoder``.
    ///
    /// ```swift
    /// var errorBodyDecoder: ErrorBodyDecoder? { .json(LoginFailure.self) }
    /// ```
    var errorBodyDecoder: ErrorBodyDecoder? { get }
}

extension Request where Self: RequestConfiguration {
    /// The request itself, for a request that declares its own parameters: such a type needs no
    /// `configuration` property (writing `var configuration: Self { self }` still compiles).
    ///
    /// ```swift
    /// struct UserRequest: JSONDecodableRequest, RequestConfiguration {
    ///     typealias Response = User
    ///     @Query("id") var id: Int? = nil
    ///     let base = URL(string: "https://api.example.com")!
    ///     let path = "user"
    ///     let method: HTTPMethod = .get
    /// }
    /// ```
    public var configuration: Self { self }
}

extension Request {
    /// States nothing: fields use their own strategy, then the defaults.
    public var encodingStrategy: EncodingStrategy { .inherit }

    /// No options: the session's apply, unless the call gives its own.
    public var options: RequestOptions {
        RequestOptions()
    }

    /// `nil`: the session's retry policy applies.
    public var retryPolicy: RetryPolicy? {
        nil
    }

    /// `nil`: the session's error body decoder applies.
    public var errorBodyDecoder: ErrorBodyDecoder? {
        nil
    }

    /// Returns `urlRequest` unchanged.
    ///
    /// - Parameter urlRequest: The request built from the declaration.
    /// - Returns: `urlRequest`.
    /// - Throws: Nothing; an implementation of your own throws to stop the request.
    public func intercept(urlRequest: URLRequest) throws -> URLRequest {
        urlRequest
    }

    /// Rejects an HTTP status code outside `200..<300`.
    ///
    /// - Parameter urlResponse: The response received.
    /// - Throws: The status check's error for a status code outside `200..<300`, reported as
    ///   ``RequestError/unacceptableStatusCode(_:body:response:context:)``.
    public func intercept(urlResponse: URLResponse) throws {
        try validateStatusCode(of: urlResponse)
    }

    /// Rejects `urlResponse` when it is an `HTTPURLResponse` whose status code is not in
    /// `acceptable`: the pipeline reports the rejection as
    /// ``RequestError/unacceptableStatusCode(_:body:response:context:)``, with the body.
    ///
    /// Call it from your own ``intercept(urlResponse:)`` to keep the default check:
    ///
    /// ```swift
    /// func intercept(urlResponse: URLResponse) throws {
    ///     try validateStatusCode(of: urlResponse, acceptable: 200..<400)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - urlResponse: The response received.
    ///   - acceptable: The status codes that pass; `200..<300` by default.
    /// - Throws: The status check's error, carrying the status code (an internal type: the
    ///   caller sees ``RequestError/unacceptableStatusCode(_:body:response:context:)``).
    public func validateStatusCode(of urlResponse: URLResponse, acceptable: Range<Int> = 200..<300) throws {
        guard let http = urlResponse as? HTTPURLResponse else { return }
        guard acceptable.contains(http.statusCode) else {
            throw UnacceptableStatusCode(statusCode: http.statusCode)
        }
    }
}

extension Request where Response == DataParser.Object {
    /// Returns the parsed object as the response, for requests whose response is
    /// exactly what the parser produces.
    ///
    /// - Parameters:
    ///   - object: The value the ``parser`` produced.
    ///   - urlResponse: The response it came with (unused).
    /// - Returns: `object`.
    /// - Throws: Nothing; an implementation of your own throws when it cannot make the response.
    public func response(from object: DataParser.Object, urlResponse: URLResponse) throws -> Response {
        object
    }
}
