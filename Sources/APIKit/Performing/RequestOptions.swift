/// How a request is sent: its timeout and cache policy.
///
/// Options come from three places, and the most specific one that sets a member wins,
/// member by member: the call (`session.perform(request, options:)`), the request type
/// (``Request/options``), then the ``Session`` (``Session/options``). A member left `nil`
/// everywhere keeps the transport's default (for `URLSession`, the `URLRequest` default: 60
/// seconds and `.useProtocolCachePolicy`).
///
/// ```swift
/// let session = Session(options: RequestOptions(timeout: 30))
/// // this call waits 5 seconds at most, and still uses the session's cache policy
/// let user = try await session.response(for: UserRequest(id: 1), options: RequestOptions(timeout: 5))
/// ```
///
/// The options are applied to the `URLRequest` before ``Request/intercept(urlRequest:)`` and
/// the session's ``Interceptor``s run, so those see them and may still change them.
public struct RequestOptions: Sendable, Hashable {
    /// Seconds to wait for data before the transfer fails with `URLError(.timedOut)`
    /// (`URLRequest.timeoutInterval`); must be positive and finite. `nil` leaves it unset.
    public var timeout: TimeInterval?
    /// The cache policy (`URLRequest.cachePolicy`); `nil` leaves it unset.
    public var cachePolicy: URLRequest.CachePolicy?

    /// Creates options; a member left `nil` is taken from the next level (request type, session,
    /// transport).
    ///
    /// ```swift
    /// let options = RequestOptions(timeout: 20, cachePolicy: .reloadIgnoringLocalCacheData)
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: Seconds to wait for data; positive and finite, or `nil` to leave it unset.
    ///     Any other value fails the request with ``BuildError/invalidTimeout(_:)``.
    ///   - cachePolicy: The cache policy, or `nil` to leave it unset.
    public init(timeout: TimeInterval? = nil, cachePolicy: URLRequest.CachePolicy? = nil) {
        self.timeout = timeout
        self.cachePolicy = cachePolicy
    }

    /// These options, with each member that is `nil` here taken from `general`.
    ///
    /// - Parameter general: Options of a wider scope, such as the session's.
    /// - Returns: The merged options.
    public func overriding(_ general: RequestOptions) -> RequestOptions {
        RequestOptions(timeout: timeout ?? general.timeout, cachePolicy: cachePolicy ?? general.cachePolicy)
    }

    /// Whether no member is set.
    var isEmpty: Bool {
        timeout == nil && cachePolicy == nil
    }

    /// Writes the members that are set into `urlRequest`.
    func apply(to urlRequest: inout URLRequest) throws(BuildError) {
        if let timeout {
            guard timeout.isFinite, timeout > 0 else { throw .invalidTimeout(timeout) }
            urlRequest.timeoutInterval = timeout
        }
        if let cachePolicy {
            urlRequest.cachePolicy = cachePolicy
        }
    }
}
