// The spellings from before ``CredentialStore`` was renamed (it was `Authentication`, too easy to
// confuse with the ``Authenticator`` protocol). They forward to the new names, so code written
// against them keeps compiling, with a deprecation warning and a fix-it.

/// The old name of ``CredentialStore``.
///
/// ```swift
/// // before
/// let api = Session(authentication: Authentication(BearerAuthenticator(auth: client), credential: savedToken))
/// // now
/// let api = Session(credentialStore: CredentialStore(BearerAuthenticator(auth: client), credential: savedToken))
/// ```
@available(*, deprecated, renamed: "CredentialStore")
public typealias Authentication = CredentialStore

extension Session {
    /// The old name of ``credentialStore``.
    @available(*, deprecated, renamed: "credentialStore")
    public var authentication: CredentialStore? {
        get { credentialStore }
        set { credentialStore = newValue }
    }

    /// The initializer with the old label of `credentialStore`; it forwards to
    /// ``init(transport:completionQueue:defaultHeaders:defaultQueryItems:options:interceptors:retryPolicy:credentialStore:errorBodyDecoder:logger:)``.
    ///
    /// `authentication` has no default value, so that only a call spelling it out picks this
    /// initializer and `Session()` is not ambiguous.
    ///
    /// - Parameters:
    ///   - transport: Sends the requests; ``URLSessionTransport/shared`` by default.
    ///   - completionQueue: Where responses are processed and completions called; `nil` for
    ///     where the transport calls back.
    ///   - defaultHeaders: Headers for every request that does not declare them.
    ///   - defaultQueryItems: Query items for every request that does not declare them.
    ///   - options: Options for every request, unless the request type or the call sets them.
    ///   - interceptors: Session-wide hooks.
    ///   - retryPolicy: When failed requests are sent again; never by default.
    ///   - authentication: The session's ``CredentialStore``.
    ///   - errorBodyDecoder: Reads the error payload of rejected responses.
    ///   - logger: Receives every request as sent and every response, redacted.
    @available(
        *, deprecated,
        renamed:
            "init(transport:completionQueue:defaultHeaders:defaultQueryItems:options:interceptors:retryPolicy:credentialStore:errorBodyDecoder:logger:)"
    )
    public init(
        transport: any Transport = URLSessionTransport.shared,
        completionQueue: DispatchQueue? = nil,
        defaultHeaders: [String: String] = [:],
        defaultQueryItems: [String: String] = [:],
        options: RequestOptions = RequestOptions(),
        interceptors: [any Interceptor] = [],
        retryPolicy: RetryPolicy = .never,
        authentication: CredentialStore?,
        errorBodyDecoder: ErrorBodyDecoder? = nil,
        logger: RequestLogger? = nil
    ) {
        self.init(
            transport: transport,
            completionQueue: completionQueue,
            defaultHeaders: defaultHeaders,
            defaultQueryItems: defaultQueryItems,
            options: options,
            interceptors: interceptors,
            retryPolicy: retryPolicy,
            credentialStore: authentication,
            errorBodyDecoder: errorBodyDecoder,
            logger: logger
        )
    }
}
