/// Everything that can go wrong while performing a request, grouped by the stage that failed.
///
/// Every case carries the ``RequestContext`` (request type, method, URL) and what
/// is needed to act on the failure: the ``BuildError``, the underlying error,
/// the status code and the body.
///
/// ```swift
/// request.perform { result in
///     switch result {
///     case .success(let response):
///         print(response)
///     case .failure(.unacceptableStatusCode(404, _, _, _)):
///         print("not found")
///     case .failure(let error):
///         print(error.localizedDescription)
///     }
/// }
/// ```
///
/// Descriptions name the stage and the request but never print header values,
/// query values or body bytes, so they can be logged.
public enum RequestError: Error {
    /// The declaration could not be turned into a `URLRequest`; nothing was sent.
    case buildFailed(BuildError, context: RequestContext)
    /// ``Request/intercept(urlRequest:)``, a session ``Interceptor`` before its `next` returned a
    /// response, or the session's ``Authenticator`` (applying or refreshing the credential) threw. Nothing was sent, except after a rejected credential: a failed
    /// refresh (``CredentialRefreshFailed``) follows a request that was sent and answered 401.
    case requestInterceptorFailed(any Error, context: RequestContext)
    /// The request could not be sent or no response arrived (usually a `URLError`:
    /// refused connection, timeout, TLS failure).
    case transportFailed(any Error, context: RequestContext)
    /// The request asked to be answered from the session's ``HTTPCache`` only
    /// (`Cache-Control: only-if-cached`), and the cache holds no response it may use; nothing
    /// was sent. The cache's counterpart of the `504 Gateway Timeout` RFC 9111 §5.2.1.7 names.
    case notCached(context: RequestContext)
    /// The response's status code was rejected (by default, one outside `200..<300`);
    /// the body was not parsed and is carried as received.
    case unacceptableStatusCode(Int, body: Data, response: HTTPURLResponse, context: RequestContext)
    /// ``Request/intercept(urlResponse:)``, or a session ``Interceptor`` after its `next` returned
    /// a response, threw; the status check of
    /// ``Request/validateStatusCode(of:acceptable:)`` is reported as ``unacceptableStatusCode(_:body:response:context:)`` instead.
    case responseInterceptorFailed(any Error, body: Data, response: URLResponse, context: RequestContext)
    /// The parser could not read the body (usually a ``APIKitParsers/ParsingError``).
    case parsingFailed(any Error, body: Data, response: URLResponse, context: RequestContext)
    /// ``Request/response(from:urlResponse:)`` threw.
    case responseConversionFailed(any Error, response: URLResponse, context: RequestContext)
    /// The request was cancelled — through its ``RequestHandle``, or by cancelling the `Task`
    /// awaiting ``Request/response(using:options:progress:)`` — before it completed.
    case cancelled(context: RequestContext)

    /// The stages of a request, in order; each ``RequestError`` belongs to one.
    public enum Stage: String, Sendable, Hashable, CaseIterable {
        /// Encoding the declaration into a `URLRequest`.
        case build
        /// ``Request/intercept(urlRequest:)``, the session's ``Interceptor``s before `next`
        /// returned, and its ``Authenticator``.
        case requestInterceptor
        /// Sending the request and receiving the response, or answering it from an ``HTTPCache``.
        case transport
        /// Checking the status code, ``Request/intercept(urlResponse:)`` and the session's
        /// ``Interceptor``s after `next` returned.
        case responseValidation
        /// Parsing the body.
        case parsing
        /// ``Request/response(from:urlResponse:)``.
        case responseConversion
        /// Cancelled by the caller.
        case cancelled
    }

    /// The stage that failed.
    public var stage: Stage {
        switch self {
        case .buildFailed: .build
        case .requestInterceptorFailed: .requestInterceptor
        case .transportFailed, .notCached: .transport
        case .unacceptableStatusCode, .responseInterceptorFailed: .responseValidation
        case .parsingFailed: .parsing
        case .responseConversionFailed: .responseConversion
        case .cancelled: .cancelled
        }
    }

    /// The request the error belongs to.
    public var context: RequestContext {
        switch self {
        case .buildFailed(_, let context), .requestInterceptorFailed(_, let context),
            .transportFailed(_, let context), .unacceptableStatusCode(_, _, _, let context),
            .responseInterceptorFailed(_, _, _, let context), .parsingFailed(_, _, _, let context),
            .responseConversionFailed(_, _, let context), .cancelled(let context), .notCached(let context):
            context
        }
    }

    /// The HTTP status code, when a response was received.
    public var statusCode: Int? {
        (response as? HTTPURLResponse)?.statusCode
    }

    /// The response, when one was received.
    public var response: URLResponse? {
        switch self {
        case .unacceptableStatusCode(_, _, let response, _): response
        case .responseInterceptorFailed(_, _, let response, _), .parsingFailed(_, _, let response, _),
            .responseConversionFailed(_, let response, _):
            response
        case .buildFailed, .requestInterceptorFailed, .transportFailed, .notCached, .cancelled: nil
        }
    }

    /// The response body, when one was received and the error happened before it was parsed
    /// or while parsing it.
    public var body: Data? {
        switch self {
        case .unacceptableStatusCode(_, let body, _, _), .responseInterceptorFailed(_, let body, _, _),
            .parsingFailed(_, let body, _, _):
            body
        case .buildFailed, .requestInterceptorFailed, .transportFailed, .notCached, .responseConversionFailed,
            .cancelled:
            nil
        }
    }

    /// The error that caused this one: the ``BuildError``, the interceptor's, transport's,
    /// parser's or conversion's error; `nil` for a status code or a cancellation.
    public var underlyingError: (any Error)? {
        switch self {
        case .buildFailed(let error, _): error
        case .requestInterceptorFailed(let error, _), .transportFailed(let error, _),
            .responseInterceptorFailed(let error, _, _, _), .parsingFailed(let error, _, _, _),
            .responseConversionFailed(let error, _, _):
            error
        case .unacceptableStatusCode, .notCached, .cancelled: nil
        }
    }
}

extension RequestError: LocalizedError, CustomStringConvertible {
    /// `<request>: <what failed>`, for example
    /// `POST https://api.example.com/v1/login (LoginRequest): server answered with status code 502 (0 body bytes)`.
    /// After retries, the text ends with the number of attempts: `… status code 503 (0 body
    /// bytes) after 3 attempts`; after a retry refused by a ``RetryBudget``, `… (0 body bytes);
    /// not retried: the host's retry budget is spent`. A decoded ``errorBody`` is named by its type, never printed.
    public var errorDescription: String? {
        description
    }

    /// The same text as ``errorDescription``.
    public var description: String {
        var text = "\(context): \(summary)"
        if let errorBody {
            text += ", error body decoded as \(type(of: errorBody))"
        }
        if context.attempts > 1 {
            text += " after \(context.attempts) attempts"
        }
        if let refusal = context.retryRefusal {
            text += "; not retried: \(refusal.sentence)"
        }
        return text
    }

    private var summary: String {
        switch self {
        case .buildFailed(let error, _):
            "could not build the request: \(error)"
        case .requestInterceptorFailed(let error, _):
            "intercept(urlRequest:) or a session interceptor rejected the request: \(error)"
        case .transportFailed(let error, _):
            "transport failed: \(Self.describe(error))"
        case .unacceptableStatusCode(let code, let body, _, _):
            "server answered with status code \(code) (\(body.count) body bytes)"
        case .responseInterceptorFailed(let error, _, _, _):
            "intercept(urlResponse:) or a session interceptor rejected the response: \(error)"
        case .parsingFailed(let error, let body, _, _):
            "could not parse the \(body.count)-byte body: \(error)"
        case .responseConversionFailed(let error, _, _):
            "response(from:urlResponse:) failed: \(error)"
        case .notCached:
            "only-if-cached, and the HTTP cache holds no response it may use"
        case .cancelled:
            "cancelled"
        }
    }

    /// A transport error without its user info, which holds the failing URL and its query.
    private static func describe(_ error: any Error) -> String {
        if let urlError = error as? URLError {
            return "URLError \(urlError.code.rawValue) (\(urlError.localizedDescription))"
        }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            // On Linux an NSError of this domain does not always bridge to URLError,
            // and its description prints the user info.
            return "\(nsError.domain) error \(nsError.code)"
        }
        return String(describing: error)
    }
}
