/// A value guarded by a lock.
///
/// `@unchecked Sendable` is safe here because the value is only reached through
/// ``withLock(_:)``, which holds the lock for the whole access. For the same reason the
/// runtime's exclusivity check on `value` is turned off: the lock already makes every access
/// exclusive, and the check cost a quarter of each lock round trip on a request's path.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    @exclusivity(unchecked) private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
