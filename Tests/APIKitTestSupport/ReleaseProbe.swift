public import Foundation

/// Tells a test when the closures it handed out are gone: a closure that nothing holds any more
/// can never be called again, so what the test counts after that is final.
///
/// The event behind a "nothing more happens" check. A transport, a pipeline, a timer or a queue
/// that could still call a completion handler holds it, and lets it go once it is done with it;
/// waiting for that release instead of sleeping fails the test whenever a second call comes,
/// however late, and costs nothing when none does. A handler still held when the wait ends
/// (something kept it, or the work that would call it never ended) fails the test too.
///
/// ```swift
/// let released = ReleaseProbe()
/// let probe = CompletionProbe<Result<String, RequestError>>()
/// request.perform(session: session, completion: released.watch { probe.record($0) })
/// _ = await probe.first()
/// #expect(await released.all(), "the completion handler is still held")
/// #expect(probe.count == 1)  // final: nothing can call the handler any more
/// ```
///
/// ``CompletionProbe/handler`` is a handler watched this way.
public final class ReleaseProbe: @unchecked Sendable {
    // @unchecked: every stored property is only touched with `lock` held.
    private let lock = NSLock()
    private var alive = 0
    private var waiters = TimedWaiters<Bool>()

    /// A probe that has handed out nothing.
    public init() {}

    /// `body`, watched: the probe counts the returned closure as held until every copy of it
    /// has been released.
    ///
    /// Pass the result straight to what holds it; a copy kept in a local variable of the test
    /// holds it too.
    ///
    /// - Parameter body: What the closure does when it is called.
    /// - Returns: A closure that runs `body`.
    public func watch<Argument>(_ body: @escaping @Sendable (Argument) -> Void) -> @Sendable (Argument) -> Void {
        let token = Token(self)
        return { argument in
            withExtendedLifetime(token) { body(argument) }
        }
    }

    /// How many of the closures handed out are still held.
    public var held: Int {
        lock.lock()
        defer { lock.unlock() }
        return alive
    }

    /// Waits until every closure handed out so far has been released, at most `timeout`
    /// seconds.
    ///
    /// - Parameter timeout: How long to wait, in seconds. It bounds only how long a failure
    ///   takes to show: a release normally comes within milliseconds.
    /// - Returns: `true` once none is held (at once when none is); `false` when some were still
    ///   held after `timeout`.
    public func all(timeout: TimeInterval = 120) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            lock.lock()
            guard alive > 0 else {
                lock.unlock()
                continuation.resume(returning: true)
                return
            }
            let id = waiters.add(continuation)
            lock.unlock()
            TimedWaiters<Bool>.expire(after: timeout) { [self] in
                lock.lock()
                let waiter = waiters.remove(id)
                lock.unlock()
                waiter?.resume(returning: false)
            }
        }
    }

    fileprivate func retain() {
        lock.lock()
        alive += 1
        lock.unlock()
    }

    fileprivate func release() {
        lock.lock()
        alive -= 1
        let woken = alive == 0 ? waiters.removeAll() : []
        lock.unlock()
        for continuation in woken {
            continuation.resume(returning: true)
        }
    }
}

private final class Token: Sendable {
    let probe: ReleaseProbe

    init(_ probe: ReleaseProbe) {
        self.probe = probe
        probe.retain()
    }

    deinit {
        probe.release()
    }
}
