extension Request {
    /// Builds the `URLRequest` this request would send, without sending it.
    ///
    /// The configuration is encoded and ``intercept(urlRequest:)`` is applied, exactly
    /// as ``perform(session:completionQueue:completion:)`` does before sending. Use it
    /// to log, sign or test requests.
    ///
    /// ```swift
    /// let urlRequest = try SetPushRequest(accessToken: "t", pushReplyMe: true).makeURLRequest()
    /// print(urlRequest.url!, String(decoding: urlRequest.httpBody ?? Data(), as: UTF8.self))
    /// ```
    ///
    /// - Returns: The request as it would be sent.
    /// - Throws: ``RequestError/buildFailed(_:context:)`` when the declaration is invalid,
    ///   or ``RequestError/requestInterceptorFailed(_:context:)`` when the interceptor throws.
    public func makeURLRequest() throws(RequestError) -> URLRequest {
        let context = initialContext
        let built: URLRequest
        do {
            built = try encodedURLRequest()
        } catch {
            throw .buildFailed(error, context: context)
        }
        do {
            return try intercept(urlRequest: built)
        } catch {
            throw .requestInterceptorFailed(error, context: context.with(url: built.url))
        }
    }

    /// The configuration encoded into a `URLRequest`, before ``intercept(urlRequest:)``.
    func encodedURLRequest() throws(BuildError) -> URLRequest {
        let serializer = URLRequestSerializer(
            base: base,
            path: path,
            method: method,
            acceptedContentType: parser.contentType
        )
        return try serializer.urlRequest(for: ParameterCollector.collect(from: configuration))
    }

    /// The context errors carry before the URL is known.
    var initialContext: RequestContext {
        RequestContext(
            requestType: String(describing: Self.self),
            method: method,
            url: nil,
            declaredLocation: RequestContext.redacted(base) + " + \"\(path.debugEscaped)\""
        )
    }
}
