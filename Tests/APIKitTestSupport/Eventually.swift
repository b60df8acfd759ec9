/// Whether `condition` holds within 120 s, checked every 10 ms: a wait for a state, with no
/// bound on how soon it comes — wide enough for a machine with other builds beside the tests.
///
/// ```swift
/// #expect(await eventually { transport.arrivals.count == 2 })
/// ```
public func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
    for _ in 0..<12_000 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return false
}
