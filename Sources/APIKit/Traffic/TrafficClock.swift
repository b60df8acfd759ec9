/// A `Clock` with `Duration`s, read as time elapsed since the moment the middleware was made:
/// the one seam the traffic middlewares take time from, so that tests drive it by hand.
///
/// Storing the clock as two closures keeps ``TrafficControl`` and ``RetryBudget`` free of a
/// generic parameter (`Session(interceptors:)` holds `any Interceptor`) while their waits still
/// run on the caller's clock.
struct TrafficClock: Sendable {
    /// Time elapsed since the clock was read first.
    let elapsed: @Sendable () -> Duration
    /// Waits until ``elapsed`` reaches the deadline; throws `CancellationError` when the task is
    /// cancelled.
    let sleep: @Sendable (_ deadline: Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleep = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
    }
}

extension URL {
    /// What the traffic middlewares count by: the host, lowercased, and the port when the URL
    /// names one (`api.example.com`, `localhost:8080`).
    var trafficHost: String {
        var host = self.host ?? ""
        // most hosts are lowercase ASCII already: lowercasing them would only copy
        for byte in host.utf8 where byte >= 0x80 || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) {
            host = host.lowercased()
            break
        }
        guard let port else { return host }
        return host + ":" + String(port)
    }
}
