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
    /// What the traffic middlewares count by: the host, lowercased, without a trailing dot, an
    /// IPv6 address in brackets, and the port when the URL names one other than its scheme's
    /// default (`api.example.com`, `localhost:8080`, `[::1]:8080`): `https://api.example.com`
    /// and `https://api.example.com:443/` are one server.
    var trafficHost: String {
        var host = self.host ?? ""
        // most hosts are lowercase ASCII already: lowercasing them would only copy
        for byte in host.utf8 where byte >= 0x80 || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) {
            host = host.lowercased()
            break
        }
        if host.utf8.last == UInt8(ascii: "."), host.utf8.count > 1 { host.removeLast() }
        if host.utf8.contains(UInt8(ascii: ":")), host.utf8.first != UInt8(ascii: "[") { host = "[" + host + "]" }
        guard let port, port != Self.defaultPort(of: scheme) else { return host }
        return host + ":" + String(port)
    }

    /// The port a URL of `scheme` means when it names none.
    private static func defaultPort(of scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }
}
