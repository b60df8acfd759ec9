/// A link of the chain every call of a ``Session`` goes through: it receives the request, the
/// call's context and `next`, the rest of the chain down to the transport.
///
/// Every call — ``Request/response(using:options:progress:)``, the completion-handler
/// ``Request/perform(using:options:progress:completion:)``, ``Request/stream(using:options:maximumBufferSize:)``
/// and ``Request/download(to:using:resumable:resumingFrom:options:progress:)`` — runs the same
/// stages in the same order:
///
/// 1. the request's configuration is encoded, the session's default headers, query items and
///    ``RequestOptions`` are applied, and the request's own ``Request/intercept(urlRequest:)`` runs;
/// 2. the session's chain: its ``RetryPolicy``, its ``CredentialStore``, then
///    ``Session/interceptors`` **in list order**, then its ``RequestLogger``, and the transport;
/// 3. the request's own ``Request/intercept(urlResponse:)`` (by default the status check);
/// 4. the body: parsed, streamed, or moved to the download's destination.
///
/// An interceptor may change the request before calling `next`, call `next` zero or more times
/// (a retry, a replay), answer without calling it (a cache), and read or replace the response
/// `next` returns before the body is consumed. The response of a stream or a download carries
/// its head only: the body is never buffered for an interceptor (``CallResponse/data`` is `nil`).
/// The library's own retries, credential refresh and logging are links of this chain.
///
/// An error thrown by `next` is a ``RequestError`` naming the stage that failed (a transport
/// failure, a link further in); rethrow it, or answer instead. Any other error an interceptor
/// throws is reported as ``RequestError/requestInterceptorFailed(_:context:)`` when it came before
/// `next` returned a response, and as
/// ``RequestError/responseInterceptorFailed(_:body:response:context:)`` after. A cancelled call
/// cancels the task the chain runs in.
///
/// ```swift
/// struct BearerToken: Interceptor {
///     let tokens: TokenStore   // an actor
///
///     func intercept(
///         _ urlRequest: URLRequest, context: RequestContext,
///         next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
///     ) async throws -> CallResponse {
///         var request = urlRequest
///         request.setValue("Bearer \(await tokens.current)", forHTTPHeaderField: "Authorization")
///         return try await next(request)
///     }
/// }
///
/// let session = Session(interceptors: [BearerToken(tokens: store)])
/// ```
public protocol Interceptor: Sendable {
    /// Passes the request on with `next`, and returns the response, changed or not.
    ///
    /// - Parameters:
    ///   - urlRequest: The request as the stages before this one left it.
    ///   - context: The request's type, method and URL, and the number of the attempt this pass
    ///     of the chain will make (``RequestContext/attempts``).
    ///   - next: Sends a request through the rest of the chain and returns its response; may be
    ///     called zero or more times.
    /// - Returns: The response for the stages before this one.
    /// - Throws: A ``RequestError`` from `next`, or any error to stop the call (reported as the
    ///   stage it came from, as above).
    func intercept(
        _ urlRequest: URLRequest,
        context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse
}
