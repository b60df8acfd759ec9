import Foundation

/// A value guarded by a lock, for state a test shares with completion handlers, delegate
/// callbacks and other threads.
///
/// The one lock box of the test targets: a flag, a counter or a list of recorded values is a
/// `Protected` rather than a class of its own with a lock.
///
/// ```swift
/// let calls = Protected(0)
/// DispatchQueue.global().async { calls.withLock { $0 += 1 } }
/// let seen = calls.value
/// ```
public final class Protected<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written with `lock` held.
    private let lock = NSLock()
    private var storage: Value

    /// A box holding `value`.
    ///
    /// - Parameter value: The initial value.
    public init(_ value: Value) {
        storage = value
    }

    /// Runs `body` with the value, the lock held, and returns what it returns.
    ///
    /// - Parameter body: Reads or changes the value; it must not call back into this box.
    /// - Throws: What `body` throws; the lock is released either way.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }

    /// A copy of the value, read with the lock held.
    public var value: Value {
        withLock { $0 }
    }

    /// Appends `element` to the list, with the lock held: a box that records calls.
    ///
    /// - Parameter element: The value to record, after those recorded before it.
    public func append<Element>(_ element: Element) where Value == [Element] {
        withLock { $0.append(element) }
    }
}
