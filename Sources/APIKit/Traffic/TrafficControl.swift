/// Limits how many calls are in flight, in all and per host, queues the others in arrival
/// order, and pauses a host that answers `429` or `503` with `Retry-After`: an
/// ``Interceptor`` for ``Session/interceptors``, written against the public protocol alone: it
/// reaches into no part of the chain a user's interceptor could not.
///
/// **Limits.** A call over a limit waits, holding no thread, until a call ends: per host in
/// first-come, first-served order, and a full host never holds up calls to another. A call
/// waiting in the queue can be cancelled like any call: it leaves the queue, nothing is sent,
/// and it ends with ``RequestError/cancelled(context:)`` (a `perform` completion is called once,
/// with that error). Both limits are off unless set: the right number depends on the server
/// (an HTTP/2 server multiplexes hundreds of calls on one connection, a small API allows a
/// few), and a limit that was not asked for would only slow callers down. OkHttp's dispatcher
/// uses 64 in all and 5 per host, a reasonable start for an app calling HTTP/1.1 servers.
///
/// **Rates.** With `requestsPerSecondPerHost`, each host also gets a token bucket: it holds
/// `burstPerHost` tokens (1 by default) and gains `requestsPerSecondPerHost` of them each
/// second, and every attempt sent to the host takes one. A call that would go beyond the host's
/// rate waits in the same queue, in the same order, until its token is there. Each host's
/// bucket is full when its first call comes. Off unless set, like the limits.
///
/// **Pauses.** A response `429 Too Many Requests` or `503 Service Unavailable` with a
/// `Retry-After` header (seconds, or an HTTP date measured from the response's own `Date`)
/// pauses its host: no call to it is sent —
/// waiting, retried or new — until the time has passed, cut to `maxPause`. Calls already in
/// flight go on. A ``RetryPolicy`` of the session retries the call that got the answer after
/// the same `Retry-After`, measured from the same moment: its retry waits for the later of the
/// two ends, never their sum, and a retry that comes early waits in the queue for the rest of
/// the pause. Set `maxPause` to 0 to never pause.
///
/// **Where it counts.** A host is a URL's host, lowercased and without a trailing dot, with its
/// port when the URL names one other than its scheme's default (`https://api.example.com` and
/// `https://api.example.com:443` are one host; an IPv6 address keeps its brackets). A slot is taken for each attempt — a retry queues again behind the calls that came
/// before it, and a call waiting for its retry's backoff holds no slot — and given back when
/// the response has been received: for a stream, when its response head has arrived (a
/// long-lived stream would otherwise hold its host's slot for its lifetime). Put it where it
/// should count in ``Session/interceptors``: first, to count every call that reaches the
/// network; after a cache, so that answers from memory wait for nothing.
///
/// **Waits.** Each wait runs on the `clock` given to the initializer (`ContinuousClock` by
/// default; a test passes a clock it moves by hand). A session's ``Session/onCallEvent`` sees
/// each wait as ``CallEvent/Stage/queued(host:)`` and ``CallEvent/Stage/dequeued(host:waited:)``
/// (how long it waited on that clock), or ``CallEvent/Stage/cancelled(_:)`` for a call cancelled
/// while it waits; a call that did not wait reports neither.
///
/// ```swift
/// let traffic = TrafficControl(maxCallsInFlight: 64, maxCallsInFlightPerHost: 5, maxPause: 120)
/// let api = Session(interceptors: [traffic], retryPolicy: RetryPolicy())
/// let user = try await UserRequest(id: 1).response(using: api)
/// ```
///
/// A setting that cannot be followed — a limit below 1, a rate that is not a finite number above
/// 0, a burst below 1 or without a rate, a `maxPause` that is negative, infinite or NaN — fails
/// every call with ``BuildError/invalidTrafficControl(_:)``, before anything is sent.
public final class TrafficControl: Interceptor {
    /// The longest pause a `Retry-After` imposes on a host, in seconds; a longer one is cut to
    /// this (and to a day), and 0 never pauses.
    let maxPause: TimeInterval
    let queue: TrafficQueue
    /// Why the settings cannot be followed, when they cannot.
    private let invalid: BuildError?

    /// Creates a traffic control; with no argument it limits nothing and pauses a host for at
    /// most 60 seconds.
    ///
    /// ```swift
    /// // at most 4 calls at once to each host, and 10 a second, 20 at once after a quiet moment
    /// let traffic = TrafficControl(maxCallsInFlightPerHost: 4, requestsPerSecondPerHost: 10, burstPerHost: 20)
    /// let api = Session(interceptors: [traffic])
    /// ```
    ///
    /// - Parameters:
    ///   - maxCallsInFlight: The most calls in flight at once, all hosts together; at least 1,
    ///     or `nil` (the default) for no limit.
    ///   - maxCallsInFlightPerHost: The most calls in flight at once to one host; at least 1,
    ///     or `nil` (the default) for no limit.
    ///   - requestsPerSecondPerHost: The calls a second each host allows over time, as a token
    ///     bucket per host: finite and above 0 (0.5 allows one call every two seconds), or `nil`
    ///     (the default) for no rate.
    ///   - burstPerHost: The calls each host allows at once after a quiet moment (the bucket's
    ///     size): at least 1, and other than 1 only with `requestsPerSecondPerHost`; 1 by
    ///     default, which spaces every call to a host from the last by
    ///     `1 / requestsPerSecondPerHost`.
    ///   - maxPause: The longest pause a `Retry-After` imposes on a host, in seconds: finite
    ///     and at least 0; 60 by default, 0 never pauses.
    ///   - clock: What waits run on; `ContinuousClock` by default.
    public init<C: Clock>(
        maxCallsInFlight: Int? = nil,
        maxCallsInFlightPerHost: Int? = nil,
        requestsPerSecondPerHost: Double? = nil,
        burstPerHost: Int = 1,
        maxPause: TimeInterval = 60,
        clock: C = ContinuousClock()
    ) where C.Duration == Duration {
        self.maxPause = maxPause
        let rate = requestsPerSecondPerHost.map { TrafficRate(requestsPerSecond: $0, burst: burstPerHost) }
        self.queue = TrafficQueue(
            total: maxCallsInFlight, perHost: maxCallsInFlightPerHost, rate: rate, clock: TrafficClock(clock))
        self.invalid = Self.check(
            maxCallsInFlight: maxCallsInFlight, maxCallsInFlightPerHost: maxCallsInFlightPerHost,
            requestsPerSecondPerHost: requestsPerSecondPerHost, burstPerHost: burstPerHost, maxPause: maxPause)
    }

    /// Waits for a slot of the request's host, passes the request on, pauses the host when the
    /// response asks to, and gives the slot back.
    ///
    /// - Parameters:
    ///   - urlRequest: The request.
    ///   - context: The call.
    ///   - next: The rest of the chain.
    /// - Returns: The response of `next`, unchanged.
    /// - Throws: ``RequestError/buildFailed(_:context:)`` with
    ///   ``BuildError/invalidTrafficControl(_:)`` for settings that cannot be followed;
    ///   ``RequestError/cancelled(context:)`` when the call is cancelled while it waits; the
    ///   error of `next`.
    public func intercept(
        _ urlRequest: URLRequest,
        context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        if let invalid { throw RequestError.buildFailed(invalid, context: context) }
        // the context's URL is the request's, already read out of it (each read of a
        // `URLRequest`'s URL parses it again on Linux)
        let host = (context.url ?? urlRequest.url)?.trafficHost ?? ""
        let waited: Duration?
        do {
            waited =
                queue.tryAcquire(host)
                ? nil : try await queue.acquire(host) { try? context.report(.queued(host: host)) }
        } catch {
            throw RequestError.cancelled(context: context)
        }
        if let waited {
            try? context.report(.dequeued(host: host, waited: waited))
        }
        let response: CallResponse
        do {
            response = try await next(urlRequest)
        } catch {
            queue.release(host)
            throw error
        }
        if let pause = pause(after: response) {
            queue.pause(host, for: pause)
        }
        queue.release(host)
        return response
    }

    /// How long `response` pauses its host: a 429 or 503 with a readable `Retry-After`, cut
    /// to `maxPause`.
    private func pause(after response: CallResponse) -> Duration? {
        guard maxPause > 0, let http = response.urlResponse as? HTTPURLResponse,
            http.statusCode == 429 || http.statusCode == 503,
            let seconds = RetryAfter.seconds(in: http, now: Date())
        else { return nil }
        // at most a day, as `maxPause` says
        let capped = min(seconds, maxPause, 86_400)
        return capped > 0 ? .milliseconds(Int64((capped * 1000).rounded(.up))) : nil
    }

    private static func check(
        maxCallsInFlight: Int?, maxCallsInFlightPerHost: Int?, requestsPerSecondPerHost: Double?, burstPerHost: Int,
        maxPause: TimeInterval
    ) -> BuildError? {
        if let limit = maxCallsInFlight, limit < 1 {
            return .invalidTrafficControl("maxCallsInFlight \(limit) is below 1")
        }
        if let limit = maxCallsInFlightPerHost, limit < 1 {
            return .invalidTrafficControl("maxCallsInFlightPerHost \(limit) is below 1")
        }
        if let rate = requestsPerSecondPerHost, !rate.isFinite || rate <= 0 {
            return .invalidTrafficControl("requestsPerSecondPerHost \(rate) is not a finite number above 0")
        }
        if burstPerHost < 1 {
            return .invalidTrafficControl("burstPerHost \(burstPerHost) is below 1")
        }
        if burstPerHost != 1, requestsPerSecondPerHost == nil {
            return .invalidTrafficControl("burstPerHost \(burstPerHost) is set without requestsPerSecondPerHost")
        }
        guard maxPause.isFinite, maxPause >= 0 else {
            return .invalidTrafficControl("maxPause \(maxPause) is not a finite number of seconds ≥ 0")
        }
        return nil
    }
}
