/// Where a header of a request came from, named in ``BuildError/framingHeader(_:source:)``.
///
/// A framing header can be set in several places besides the declaration; the source tells
/// which one to fix: the property, `Session.defaultHeaders`, `intercept(urlRequest:)`, the
/// interceptor's type or the authenticator. The error's description names it in words.
public enum HeaderSource: Sendable, Hashable {
    /// A property of the configuration (a ``Header`` or ``HeaderDict``, or a wrapper of your
    /// own): its name, without the `_` that property wrappers add.
    case property(String)
    /// ``Session/defaultHeaders``.
    case sessionDefaultHeaders
    /// The request's ``Request/intercept(urlRequest:)``.
    case requestIntercept
    /// A session ``Interceptor`` that passed the header on to `next`; the interceptor's type name.
    case interceptor(String)
    /// The ``Authenticator`` of the session's ``CredentialStore``; its type name.
    case authenticator(String)

    /// Where the header came from, as the error's description says it: "property `length`",
    /// "Session.defaultHeaders", "intercept(urlRequest:)", "interceptor `Signer`",
    /// "authenticator `BearerAuthenticator`".
    var phrase: String {
        switch self {
        case .property(let name): "property `\(name)`"
        case .sessionDefaultHeaders: "Session.defaultHeaders"
        case .requestIntercept: "intercept(urlRequest:)"
        case .interceptor(let type): "interceptor `\(type)`"
        case .authenticator(let type): "authenticator `\(type)`"
        }
    }
}
