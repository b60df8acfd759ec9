/// A rate of calls a host allows, as APIs that publish one state it: so many requests per
/// second on average, with bursts of up to ``burst`` at once (a token bucket).
///
/// A bucket holds up to ``burst`` tokens and gains ``requestsPerSecond`` of them each second;
/// every attempt sent to the host takes one. An attempt that finds the bucket empty waits in
/// the host's queue, in arrival order, until the next token is there. Each host has its own
/// bucket, full when its first call comes.
///
/// ```swift
/// // at most 10 requests a second to each host, 20 at once after a quiet moment
/// let traffic = TrafficControl(ratePerHost: TrafficRate(requestsPerSecond: 10, burst: 20))
/// ```
public struct TrafficRate: Sendable, Hashable {
    /// How many tokens the bucket gains each second: the calls a second it allows over time.
    public let requestsPerSecond: Double
    /// How many tokens the bucket holds: the calls it allows at once after a quiet moment.
    public let burst: Int

    /// Creates a rate.
    ///
    /// - Parameters:
    ///   - requestsPerSecond: The calls a second allowed over time: finite and above 0 (0.5
    ///     allows one call every two seconds).
    ///   - burst: The calls allowed at once after a quiet moment: at least 1; 1 by default,
    ///     which spaces every call from the last by `1 / requestsPerSecond`.
    public init(requestsPerSecond: Double, burst: Int = 1) {
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
    }

    /// Why the rate cannot be followed, when it cannot.
    var problem: String? {
        guard requestsPerSecond.isFinite, requestsPerSecond > 0 else {
            return "ratePerHost.requestsPerSecond \(requestsPerSecond) is not a finite number above 0"
        }
        guard burst >= 1 else { return "ratePerHost.burst \(burst) is below 1" }
        return nil
    }
}
