/// When and how often a ``Session`` sends a request again after a failure: opt-in, bounded,
/// with exponential backoff, full jitter and `Retry-After`.
///
/// By default a session does not retry (``never``). With `RetryPolicy()` it retries idempotent
/// methods (`GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`, `TRACE`) up to 3 attempts in all, on
/// transport failures that a new attempt may fix (timeout, lost connection, no network…, never a
/// cancellation) and on the status codes 408, 429, 500, 502, 503 and 504. Before each retry it
/// waits the server's `Retry-After` (seconds, or an HTTP date measured from the response's own
/// `Date`; capped by ``maxRetryAfter``) or else the ``backoff`` delay.
///
/// ```swift
/// var api = Session(retryPolicy: RetryPolicy())
/// api.retryPolicy.maxAttempts = 5
/// let user = try await UserRequest(id: 1).response(using: api)
/// // still failing after 5 attempts: the error says so
/// // "GET https://api.example.com/v1/user?id=*** (UserRequest): server answered with status code 503 (0 body bytes) after 5 attempts"
/// ```
///
/// The policy is the outermost link of the session's chain (see ``Interceptor``): each retry
/// sends the request as it was built once, with a fresh body stream (so a multipart body
/// streamed from disk is read again, whole), through the credential store, the session's
/// interceptors and the logger again — they see every attempt and every response. The request's
/// ``Request/intercept(urlResponse:)`` and the response stages see only the last response. A
/// stream is retried on its response head, before its body is read.
/// Cancelling the request while it waits for a retry ends the wait at once and reports
/// ``RequestError/cancelled(context:)``. The error of the last attempt is reported, with
/// ``RequestContext/attempts`` telling how many transfers were made.
///
/// A request type may choose its own policy with ``Request/retryPolicy``; it wins over the
/// session's. A policy that cannot be followed (``maxAttempts`` below 1, a negative or
/// non-finite delay, a ``RetryBudget`` with settings out of range) fails the request with
/// ``BuildError/invalidRetryPolicy(_:)``.
///
/// With a ``budget``, retries are bounded per host to a share of recent first attempts, so
/// that an outage does not multiply the traffic by ``maxAttempts``.
///
/// Every body APIKit builds is sent again whole, files read anew. A body stream of your own
/// (an `httpBodyStream` set in ``Request/intercept(urlRequest:)`` or an ``Interceptor``) is
/// read by the first attempt and cannot be: a retry or a credential replay of such a request
/// fails with `URLError(.requestBodyStreamExhausted)` instead of sending an empty body.
///
/// What is retried is said by the three sets (methods, status codes, `URLError` codes). A
/// decision they cannot express — on a response's body or headers, say — is an
/// ``Interceptor`` of your own: a link may call `next` again with the same request.
public struct RetryPolicy: Sendable {
    /// How many times a request is sent at most, the first time included; `1` means no retry.
    /// A replay after a credential refresh (``CredentialStore``) is not counted: each attempt
    /// may be replayed once, and ``RequestContext/attempts`` counts every transfer.
    public var maxAttempts: Int
    /// The methods that are retried; a request with another method is sent once. Retrying a
    /// `POST` may perform its action twice: add it only for endpoints that are idempotent.
    public var retryableMethods: Set<HTTPMethod>
    /// The response status codes that are retried.
    public var retryableStatusCodes: Set<Int>
    /// The transport failures that are retried, by `URLError` code. A cancellation is never
    /// retried, even if listed.
    public var retryableURLErrorCodes: Set<URLError.Code>
    /// How long to wait before each retry when the response has no `Retry-After`.
    public var backoff: Backoff
    /// The longest `Retry-After` honoured, in seconds; a longer one is cut to this. No wait, a
    /// backoff's included, is longer than 10⁹ s (about 31 years).
    public var maxRetryAfter: TimeInterval
    /// Bounds the retries to a share of recent first attempts, per host; `nil` (the default)
    /// retries every call the policy allows. With a budget, each first attempt deposits and each
    /// retry withdraws; a retry the budget refuses is not made, and the call ends at once with
    /// its last outcome, its context noting ``RetryRefusal/budgetExhausted``. See
    /// ``RetryBudget``.
    ///
    /// ```swift
    /// var policy = RetryPolicy()
    /// policy.budget = RetryBudget(ratio: 0.1)
    /// ```
    public var budget: RetryBudget?
    /// The methods that the HTTP specification defines as idempotent.
    @usableFromInline static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, .trace]
    /// 408 Request Timeout, 429 Too Many Requests, 500, 502, 503 and 504.
    @usableFromInline static let transientStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Transport failures that a new attempt may fix.
    @usableFromInline static let transientURLErrorCodes: Set<URLError.Code> = [
        .timedOut, .networkConnectionLost, .cannotConnectToHost, .notConnectedToInternet,
        .cannotFindHost, .dnsLookupFailed, .resourceUnavailable,
    ]

    /// Never retries: every request is sent once. A session's policy unless told otherwise.
    ///
    /// Named `never`, not `none`: a request type's ``Request/retryPolicy`` is a
    /// `RetryPolicy?`, where `.none` is `Optional.none` — "use the session's policy".
    ///
    /// ```swift
    /// struct Pay: Request, RequestConfiguration {
    ///     // …
    ///     var retryPolicy: RetryPolicy? { .never }   // a payment: never send twice
    /// }
    /// ```
    public static let never = RetryPolicy(maxAttempts: 1)

    /// Creates a policy; with no argument, up to 3 attempts for idempotent methods, on
    /// transient failures and status codes, with exponential backoff from 0.5 seconds and full
    /// jitter.
    ///
    /// ```swift
    /// let standard = RetryPolicy()
    /// let policy = RetryPolicy(maxAttempts: 4, backoff: .init(baseDelay: 1, maxDelay: 10))
    /// ```
    ///
    /// - Parameters:
    ///   - maxAttempts: Attempts in all, the first included; at least 1.
    ///   - retryableMethods: The methods retried; the idempotent ones by default.
    ///   - retryableStatusCodes: The status codes retried.
    ///   - retryableURLErrorCodes: The transport failures retried.
    ///   - backoff: The delay before each retry without `Retry-After`.
    ///   - maxRetryAfter: The longest `Retry-After` honoured, in seconds.
    ///   - budget: Bounds the retries to a share of recent first attempts, per host; `nil`
    ///     (the default) for no bound but `maxAttempts`.
    public init(
        maxAttempts: Int = 3,
        retryableMethods: Set<HTTPMethod> = RetryPolicy.idempotentMethods,
        retryableStatusCodes: Set<Int> = RetryPolicy.transientStatusCodes,
        retryableURLErrorCodes: Set<URLError.Code> = RetryPolicy.transientURLErrorCodes,
        backoff: Backoff = Backoff(),
        maxRetryAfter: TimeInterval = 60,
        budget: RetryBudget? = nil
    ) {
        self.maxAttempts = maxAttempts
        self.retryableMethods = retryableMethods
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableURLErrorCodes = retryableURLErrorCodes
        self.backoff = backoff
        self.maxRetryAfter = maxRetryAfter
        self.budget = budget
    }

    /// The delay before retrying after `outcome`, the outcome of attempt number `attempt`; `nil`
    /// when it must not be retried.
    ///
    /// - Parameters:
    ///   - outcome: What the transport delivered.
    ///   - method: The request's method.
    ///   - attempt: The attempt that produced `outcome`, from 1.
    ///   - now: The current date, for a `Retry-After` HTTP date.
    ///   - random: A number in `0...1` for the jitter.
    /// - Returns: Seconds to wait before the next attempt, at most `SystemTime.longest`, or `nil`
    ///   for no retry.
    func retryDelay(
        after outcome: Result<TransportResponse, any Error>,
        method: HTTPMethod,
        attempt: Int,
        now: Date = Date(),
        random: Double = Double.random(in: 0...1)
    ) -> TimeInterval? {
        guard attempt < maxAttempts, !Self.isCancellation(outcome) else { return nil }
        guard retryableMethods.contains(method) else { return nil }
        switch outcome {
        case .success(let response):
            guard let http = response.urlResponse as? HTTPURLResponse,
                retryableStatusCodes.contains(http.statusCode)
            else { return nil }
        case .failure(let error):
            guard let code = Self.urlErrorCode(of: error), retryableURLErrorCodes.contains(code) else { return nil }
        }
        if case .success(let response) = outcome, let http = response.urlResponse as? HTTPURLResponse,
            let retryAfter = RetryAfter.seconds(in: http, now: now)
        {
            return min(retryAfter, maxRetryAfter, SystemTime.longest)
        }
        return min(backoff.delay(beforeRetry: attempt, random: random), SystemTime.longest)
    }

    /// Checks the members, naming the first that cannot be followed.
    func validate() throws(BuildError) {
        guard maxAttempts >= 1 else { throw .invalidRetryPolicy("maxAttempts \(maxAttempts) is below 1") }
        guard maxRetryAfter.isFinite, maxRetryAfter >= 0 else {
            throw .invalidRetryPolicy("maxRetryAfter \(maxRetryAfter) is not a finite number of seconds ≥ 0")
        }
        try backoff.validate()
        try budget?.validate()
    }

    /// Whether a transfer was cancelled (which a retry must never undo).
    static func isCancellation(_ outcome: Result<TransportResponse, any Error>) -> Bool {
        guard case .failure(let error) = outcome else { return false }
        return error is CancellationError || urlErrorCode(of: error) == .cancelled
    }

    /// The `URLError` code of `error`, also for an `NSError` of `NSURLErrorDomain` that does not
    /// bridge (on Linux).
    static func urlErrorCode(of error: any Error) -> URLError.Code? {
        if let urlError = error as? URLError { return urlError.code }
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain ? URLError.Code(rawValue: nsError.code) : nil
    }
}

extension RetryPolicy {
    /// Exponential backoff with optional full jitter: before retry number *n* (from 1) the delay
    /// is `min(maxDelay, baseDelay × multiplier^(n−1))`, or with jitter a random delay between 0
    /// and that.
    ///
    /// ```swift
    /// let jittered = RetryPolicy.Backoff(baseDelay: 0.5, multiplier: 2, maxDelay: 30)   // ≤ 0.5 s, ≤ 1 s, ≤ 2 s…
    /// let fixed = RetryPolicy.Backoff(baseDelay: 1, jitter: false)                     // 1 s, 2 s, 4 s…
    /// ```
    public struct Backoff: Sendable, Hashable {
        /// The delay before the first retry, in seconds (its upper bound, with jitter).
        public var baseDelay: TimeInterval
        /// The factor between the delays of two retries in a row.
        public var multiplier: Double
        /// The longest delay, in seconds.
        public var maxDelay: TimeInterval
        /// Whether each delay is a random one between 0 and the computed delay ("full jitter"),
        /// so that many clients failing together do not retry together.
        public var jitter: Bool

        /// Creates a backoff: retry *n* waits up to `min(maxDelay, baseDelay × multiplierⁿ⁻¹)` seconds.
        ///
        /// - Parameters:
        ///   - baseDelay: The delay before the first retry, in seconds; 0.5 by default.
        ///   - multiplier: The factor between two delays; 2 by default.
        ///   - maxDelay: The longest delay, in seconds; 30 by default.
        ///   - jitter: Whether delays are randomised between 0 and the computed delay; `true`
        ///     by default.
        public init(
            baseDelay: TimeInterval = 0.5, multiplier: Double = 2, maxDelay: TimeInterval = 30, jitter: Bool = true
        ) {
            self.baseDelay = baseDelay
            self.multiplier = multiplier
            self.maxDelay = maxDelay
            self.jitter = jitter
        }

        /// The delay before retry number `retry` (from 1).
        ///
        /// - Parameters:
        ///   - retry: Which retry: 1 for the second attempt.
        ///   - random: A number in `0...1` scaling the delay when ``jitter`` is on.
        /// - Returns: Seconds to wait.
        func delay(beforeRetry retry: Int, random: Double = Double.random(in: 0...1)) -> TimeInterval {
            let exponent = Double(max(0, retry - 1))
            let grown = baseDelay * pow(multiplier, exponent)
            // 0 × ∞ (no base delay, a multiplier grown past Double.greatestFiniteMagnitude) is 0
            let computed = grown.isNaN ? 0 : min(maxDelay, grown)
            let bounded = computed.isFinite ? max(0, computed) : maxDelay
            return jitter ? bounded * min(1, max(0, random)) : bounded
        }

        func validate() throws(BuildError) {
            for (name, value) in [("baseDelay", baseDelay), ("multiplier", multiplier), ("maxDelay", maxDelay)] {
                guard value.isFinite, value >= 0 else {
                    throw .invalidRetryPolicy("backoff.\(name) \(value) is not a finite number ≥ 0")
                }
            }
        }
    }
}
