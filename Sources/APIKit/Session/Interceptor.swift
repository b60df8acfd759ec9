/// A session-wide hook that adapts every outgoing request and inspects every response:
/// authentication headers, API keys, signing, response checks.
///
/// A ``Session`` runs its interceptors around the transport, in a fixed order:
///
/// 1. the request's configuration is encoded, the session's default headers and the
///    ``RequestOptions`` are applied;
/// 2. the request's own ``Request/intercept(urlRequest:)`` runs;
/// 3. each interceptor's ``adapt(_:for:)``, **in list order** (so the last one sees the final
///    request: put signing last);
/// 4. the transport sends the request;
/// 5. each interceptor's ``inspect(_:data:for:)``, **in reverse list order** (the first
///    interceptor sees the response last, like layers of an onion); they see every response,
///    whatever its status code;
/// 6. the request's own ``Request/intercept(urlResponse:)`` (by default the status check), the
///    parser and ``Request/response(from:urlResponse:)``.
///
/// Both hooks are `async` and may throw; the default implementations do nothing. An error
/// from ``adapt(_:for:)`` stops the request before it is sent and is reported as
/// ``RequestError/requestInterceptorFailed(_:context:)``; one from ``inspect(_:data:for:)``
/// stops it before parsing and is reported as
/// ``RequestError/responseInterceptorFailed(_:body:response:context:)``.
/// A cancelled request cancels the `Task` the hooks run in.
///
/// ```swift
/// struct BearerToken: Interceptor {
///     let tokens: TokenStore   // an actor
///
///     func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
///         var request = urlRequest
///         request.setValue("Bearer \(await tokens.current)", forHTTPHeaderField: "Authorization")
///         return request
///     }
/// }
///
/// let session = Session(interceptors: [BearerToken(tokens: store)])
/// ```
public protocol Interceptor: Sendable {
    /// Adapts or rejects a request before it is sent.
    ///
    /// - Parameters:
    ///   - urlRequest: The request as built so far.
    ///   - context: The request's type, method and URL, for decisions and errors.
    /// - Returns: The request to pass on.
    /// - Throws: Any error, to stop the request; reported as
    ///   ``RequestError/requestInterceptorFailed(_:context:)``.
    func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest

    /// Inspects or rejects a response before the request's own checks and the parser.
    ///
    /// - Parameters:
    ///   - urlResponse: The response received.
    ///   - data: Its body, as received.
    ///   - context: The request's type, method and URL.
    /// - Throws: Any error, to stop the request before parsing; reported as
    ///   ``RequestError/responseInterceptorFailed(_:body:response:context:)``.
    func inspect(_ urlResponse: URLResponse, data: Data, for context: RequestContext) async throws
}

extension Interceptor {
    /// Returns `urlRequest` unchanged.
    ///
    /// - Parameters:
    ///   - urlRequest: The request as built so far.
    ///   - context: The request's type, method and URL (unused).
    /// - Returns: `urlRequest`.
    /// - Throws: Nothing; an implementation of your own throws to stop the request.
    public func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
        urlRequest
    }

    /// Accepts every response.
    ///
    /// - Parameters:
    ///   - urlResponse: The response received (unused).
    ///   - data: Its body (unused).
    ///   - context: The request's type, method and URL (unused).
    /// - Throws: Nothing; an implementation of your own throws to reject the response.
    public func inspect(_ urlResponse: URLResponse, data: Data, for context: RequestContext) async throws {}
}
