extension RequestError {
    /// The payload the ``ErrorBodyDecoder`` of the request or the session read from the body of
    /// a rejected response; `nil` without a decoder, or when the body did not decode (the raw
    /// bytes are in ``body``).
    ///
    /// ```swift
    /// if let failure = error.errorBody as? APIFailure { print(failure.errors) }
    /// ```
    public var errorBody: (any Sendable)? {
        context.errorBody
    }

    /// The same error with another context.
    func withContext(_ context: RequestContext) -> RequestError {
        switch self {
        case .buildFailed(let error, _): .buildFailed(error, context: context)
        case .requestInterceptorFailed(let error, _): .requestInterceptorFailed(error, context: context)
        case .transportFailed(let error, _): .transportFailed(error, context: context)
        case .unacceptableStatusCode(let code, let body, let response, _):
            .unacceptableStatusCode(code, body: body, response: response, context: context)
        case .responseInterceptorFailed(let error, let body, let response, _):
            .responseInterceptorFailed(error, body: body, response: response, context: context)
        case .parsingFailed(let error, let body, let response, _):
            .parsingFailed(error, body: body, response: response, context: context)
        case .responseConversionFailed(let error, let response, _):
            .responseConversionFailed(error, response: response, context: context)
        case .notCached: .notCached(context: context)
        case .cancelled: .cancelled(context: context)
        }
    }
}
