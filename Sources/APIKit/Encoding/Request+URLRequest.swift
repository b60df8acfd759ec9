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
    /// - Throws: ``RequestError/buildFailed(_:context:)`` when the declaration is invalid (or
    ///   the interceptor added a header that frames the message,
    ///   ``BuildError/framingHeader(_:source:)``), or
    ///   ``RequestError/requestInterceptorFailed(_:context:)`` when the interceptor throws.
    public func makeURLRequest() throws(RequestError) -> URLRequest {
        let built: URLRequest
        do {
            built = try encodedURLRequest()
        } catch {
            throw .buildFailed(error, context: initialContext)
        }
        let intercepted: URLRequest
        do {
            intercepted = try intercept(urlRequest: built)
        } catch {
            throw .requestInterceptorFailed(error, context: initialContext.with(url: built.url))
        }
        if let name = intercepted.firstFramingHeader() {
            throw .buildFailed(
                .framingHeader(name, source: .requestIntercept), context: initialContext.with(url: built.url))
        }
        return intercepted
    }

    /// The configuration encoded into a `URLRequest`, before ``intercept(urlRequest:)``.
    ///
    /// - Parameters:
    ///   - base: The request's ``Request/base``, when the caller has read it: a
    ///     computed `base` often parses a URL on every read.
    ///   - reading: How the configuration is read; tests compare the two ways.
    func encodedURLRequest(
        base: URL? = nil, reading: ParameterCollector.Reading = .automatic
    ) throws(BuildError) -> URLRequest {
        let accepted = parser.contentType
        if let accepted {
            // it becomes the `Accept` header: held to the rules of every declared value
            try HeaderRules.checkValue(accepted, name: "Accept", field: "\(type(of: parser)).contentType")
        }
        let serializer = URLRequestSerializer(
            base: base ?? self.base,
            path: path,
            method: method,
            acceptedContentType: accepted,
            strategy: encodingStrategy
        )
        // Read once: `configuration` is often computed (`var configuration: Self { self }`), and
        // each read copies the whole struct.
        let configuration = self.configuration
        if reading == .automatic, let plan = FieldPlan.plan(for: configuration) {
            let written = withUnsafeBytes(of: configuration) { bytes -> Result<URLRequest, BuildError> in
                // A configuration with no stored properties has no address; it has no fields either.
                let base = bytes.baseAddress ?? FieldPlan.noStorage
                do throws(BuildError) {
                    // Nothing is declared per request when every field is read in place.
                    guard !plan.readsInPlace else {
                        return .success(try serializer.urlRequest(at: base, plan: plan, declared: .nothing))
                    }
                    var declared = DeclaredParameters()
                    ParameterCollector.declare(plan.declaredFields, of: plan, at: base, into: &declared)
                    return .success(try serializer.urlRequest(at: base, plan: plan, declared: declared))
                } catch {
                    return .failure(error)
                }
            }
            return try written.get()
        }
        var declared = DeclaredParameters()
        ParameterCollector.collectWithMirror(from: configuration, into: &declared)
        return try serializer.urlRequest(at: FieldPlan.noStorage, plan: nil, declared: declared)
    }

    /// The context errors carry before the URL is known; the type's name and the redacted base
    /// are made only when it is described.
    var initialContext: RequestContext {
        initialContext(base: base)
    }

    /// ``initialContext`` with the `base` the caller has read.
    func initialContext(base: URL) -> RequestContext {
        RequestContext(declaration: .declared(.init(type: Self.self), base: base, path: path), method: method, url: nil)
    }
}
