/// How a request is sent: its idle timeout and the time one attempt may take.
///
/// Options come from three places, and the most specific one that sets a member wins,
/// member by member: the call (`request.perform(using: session, options:)`), the request type
/// (``Request/options``), then the ``Session`` (``Session/options``). A member left `nil`
/// everywhere keeps the transport's default (for `URLSession`, the `URLRequest` default: 60
/// seconds; no resource timeout).
///
/// ```swift
/// let session = Session(options: RequestOptions(timeout: 30, resourceTimeout: 120))
/// // this call waits 5 seconds at most for data, and still uses the session's 120-second
/// // limit for the whole transfer
/// let user = try await UserRequest(id: 1).response(using: session, options: RequestOptions(timeout: 5))
/// ```
///
/// The options are applied to the `URLRequest` before ``Request/intercept(urlRequest:)`` and
/// the session's ``Interceptor``s run, so those see them and may still change them (except
/// ``resourceTimeout``, which the pipeline keeps itself). What a transport caches is not an
/// option: the ``HTTPCache`` link caches the same way on every transport, and a request that
/// wants a `URLSession`'s own `URLRequest.cachePolicy` sets it in
/// ``Request/intercept(urlRequest:)``.
public struct RequestOptions: Sendable, Hashable {
    /// Seconds to wait for data before the transfer fails with `URLError(.timedOut)`
    /// (`URLRequest.timeoutInterval`); must be positive and finite. `nil` leaves it unset.
    ///
    /// This is an *idle* timeout: every byte received starts it again, so a server that sends
    /// one byte a second never reaches it. Use ``resourceTimeout`` to bound the whole transfer.
    /// One longer than 10⁹ seconds (some 31 years: none, in practice) reaches the transport as
    /// 10⁹ seconds, which every transport takes; the request's hooks see it as set.
    public var timeout: TimeInterval?
    /// Seconds one attempt may take, from the moment it is handed to the transport until the
    /// whole response body has arrived, however steadily data keeps coming; must be positive
    /// and finite. `nil` (the default) sets no such limit.
    ///
    /// When the time is up the transfer is cancelled and the request fails with
    /// ``RequestError/transportFailed(_:context:)`` holding `URLError(.timedOut)`, the same
    /// error as an idle ``timeout``, exactly once. The limit is APIKit's own timer, so it works
    /// with every ``Transport`` and on every platform, unlike
    /// `URLSessionConfiguration.timeoutIntervalForResource`, which is per session.
    ///
    /// It applies to each attempt, not to the whole call: with a ``RetryPolicy`` that retries
    /// `URLError(.timedOut)` (`RetryPolicy()` does, for idempotent methods), each
    /// attempt has the full time again, so a call can last up to `maxAttempts` ×
    /// `resourceTimeout` plus the delays between attempts. Interceptors, credential refreshes
    /// and parsing are not counted.
    ///
    /// It bounds the calls that read the body whole (``Request/response(using:options:progress:)``
    /// and `perform`); a stream or a download may last as long as it takes, bounded by the idle
    /// ``timeout`` only.
    ///
    /// ```swift
    /// struct ReportRequest: Request, RequestConfiguration {
    ///     // a slow but steady server: no idle gap over 10 s, and 60 s at most in all
    ///     var options: RequestOptions { RequestOptions(timeout: 10, resourceTimeout: 60) }
    ///     // …
    /// }
    /// ```
    public var resourceTimeout: TimeInterval?

    /// Creates options; a member left `nil` is taken from the next level (request type, session,
    /// transport).
    ///
    /// ```swift
    /// let options = RequestOptions(timeout: 20, resourceTimeout: 300)
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: Seconds to wait for data (an idle timeout); positive and finite, or `nil`
    ///     to leave it unset.
    ///   - resourceTimeout: Seconds one attempt may take in all, until the whole body has
    ///     arrived; positive and finite, or `nil` for no limit.
    ///
    /// A timeout that is zero, negative, infinite or NaN fails the request with
    /// ``BuildError/invalidTimeout(_:)`` before anything is sent.
    public init(
        timeout: TimeInterval? = nil,
        resourceTimeout: TimeInterval? = nil
    ) {
        self.timeout = timeout
        self.resourceTimeout = resourceTimeout
    }

    /// These options, with each member that is `nil` here taken from `general`.
    ///
    /// - Parameter general: Options of a wider scope, such as the session's.
    /// - Returns: The merged options.
    func overriding(_ general: RequestOptions) -> RequestOptions {
        RequestOptions(
            timeout: timeout ?? general.timeout,
            resourceTimeout: resourceTimeout ?? general.resourceTimeout
        )
    }

    /// Whether no member is set.
    var isEmpty: Bool {
        timeout == nil && resourceTimeout == nil
    }

    /// Writes the members that are set into `urlRequest`, and checks ``resourceTimeout``, which
    /// the pipeline applies itself.
    func apply(to urlRequest: inout URLRequest) throws(BuildError) {
        if let timeout {
            guard timeout.isFinite, timeout > 0 else { throw .invalidTimeout(timeout) }
            urlRequest.timeoutInterval = timeout
        }
        if let resourceTimeout {
            guard resourceTimeout.isFinite, resourceTimeout > 0 else { throw .invalidTimeout(resourceTimeout) }
        }
    }
}
