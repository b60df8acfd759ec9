import Foundation

/// Tells whether code runs synchronously inside a given call, on its thread, without relying
/// on timing: a marker in the calling thread's dictionary is set for the duration of the call.
///
/// A "was the caller's next line reached yet?" flag is not that test: on a loaded machine the
/// caller can be preempted right after the call returns, and an asynchronous completion then
/// runs before the flag is set, although it was never inside the call.
enum InsideCall {
    private static let key = "apikit.tests.inside-call"

    /// Runs `body` with the marker set on the current thread.
    @discardableResult
    static func run<T>(_ body: () throws -> T) rethrows -> T {
        let dictionary = Thread.current.threadDictionary
        dictionary[key] = true
        defer { dictionary.removeObject(forKey: key) }
        return try body()
    }

    /// Whether the current thread is inside a ``run(_:)``.
    static var isInside: Bool {
        Thread.current.threadDictionary[key] != nil
    }
}
