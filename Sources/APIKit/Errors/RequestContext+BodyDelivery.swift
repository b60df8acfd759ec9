extension RequestContext {
    /// How a call reads its response body: whole in memory, as a stream, or into a file.
    ///
    /// A link of the chain reads it from ``RequestContext/bodyDelivery`` to treat the kinds of
    /// call apart: a cache that answers only calls reading the body whole, a log that counts a
    /// stream's bytes. Every kind of call accepts a ``CallResponse`` with a body in memory.
    ///
    /// ```swift
    /// struct MemoryCache: Interceptor {
    ///     func intercept(
    ///         _ urlRequest: URLRequest, context: RequestContext,
    ///         next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ///     ) async throws -> CallResponse {
    ///         guard context.bodyDelivery == .whole else { return try await next(urlRequest) }
    ///         return try await next(urlRequest)  // answer from memory here
    ///     }
    /// }
    /// ```
    public enum BodyDelivery: Sendable, Hashable {
        /// The body is read whole before the chain returns: ``Request/response(using:options:progress:)``
        /// and `perform`; also the context of an error raised before the chain (a build error).
        case whole
        /// The body is read while it arrives: ``Request/stream(using:options:maximumBufferSize:)``
        /// and the stream readers built on it.
        case stream
        /// The body is written to a file: `download(to:)` and the resumable downloads.
        case file
    }

    /// How the call reads its response body (``BodyDelivery``), in the contexts the links of the
    /// chain receive and in the errors raised from the chain on; not part of equality: it tells
    /// how the call is made, not which request it is.
    public var bodyDelivery: BodyDelivery { delivery.value }

    /// The context of a call that reads its body as `delivery` says.
    func with(bodyDelivery: BodyDelivery) -> RequestContext {
        var context = self
        context.delivery.value = bodyDelivery
        return context
    }
}
