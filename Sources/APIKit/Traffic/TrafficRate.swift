/// The rate of calls a host allows, as ``TrafficControl`` keeps it for each host's token bucket:
/// so many requests per second on average, with bursts of up to ``burst`` at once.
///
/// A bucket holds up to ``burst`` tokens and gains ``requestsPerSecond`` of them each second;
/// every attempt sent to the host takes one. An attempt that finds the bucket empty waits in
/// the host's queue, in arrival order, until the next token is there. Each host has its own
/// bucket, full when its first call comes.
struct TrafficRate: Sendable, Hashable {
    /// How many tokens the bucket gains each second: the calls a second it allows over time.
    let requestsPerSecond: Double
    /// How many tokens the bucket holds: the calls it allows at once after a quiet moment.
    let burst: Int
}
