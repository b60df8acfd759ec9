public import Foundation

/// Records every call of a completion handler and lets a test await the first one, with a time
/// limit, so that a lost completion fails the test instead of hanging it.
///
/// Any number of tasks may wait at once; each is resumed by the first recorded value or, when
/// none comes in time, with `nil`.
///
/// ```swift
/// let probe = CompletionProbe<Result<String, RequestError>>()
/// request.perform(session: session) { probe.record($0) }
/// let result = await probe.first(timeout: 20)  // nil: no completion within 20 s
/// #expect(probe.count == 1)
/// ```
///
/// To check that the completion is not called again, hand out ``handler`` and wait for
/// ``released(timeout:)`` before reading ``count``: once nothing holds the handler, nothing can
/// call it.
///
/// ```swift
/// request.perform(session: session, completion: probe.handler)
/// _ = await probe.first()
/// #expect(await probe.released(), "the completion handler is still held")
/// #expect(probe.count == 1)
/// ```
public final class CompletionProbe<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every stored property but `handlers` (Sendable itself) is only touched with
    // `lock` held.
    private let lock = NSLock()
    private let handlers = ReleaseProbe()
    private var values: [Value] = []
    private var firstRecorded: ContinuousClock.Instant?
    private var waiters = TimedWaiters<Value?>()

    /// A probe that has recorded nothing.
    public init() {}

    /// Records one call; the first one wakes every waiting task.
    ///
    /// - Parameter value: What the completion handler was called with.
    public func record(_ value: Value) {
        let now = ContinuousClock.now
        lock.lock()
        values.append(value)
        if firstRecorded == nil { firstRecorded = now }
        let waiting = waiters.removeAll()
        lock.unlock()
        for continuation in waiting {
            continuation.resume(returning: value)
        }
    }

    /// A completion handler that records each call here, watched by ``released(timeout:)``.
    ///
    /// Pass it straight to what calls it (`perform(completion: probe.handler)`): a copy kept in
    /// a local variable holds it too.
    public var handler: @Sendable (Value) -> Void {
        handlers.watch { [self] value in record(value) }
    }

    /// A ``handler`` that runs `body` with each value before recording it.
    ///
    /// ```swift
    /// request.perform(using: session, progress: log.handler, completion: probe.handler { _ in log.markCompleted() })
    /// ```
    ///
    /// - Parameter body: What to do with each value first.
    /// - Returns: The completion handler.
    public func handler(_ body: @escaping @Sendable (Value) -> Void) -> @Sendable (Value) -> Void {
        handlers.watch { [self] value in
            body(value)
            record(value)
        }
    }

    /// Waits until every ``handler`` handed out has been released by whatever held it (the
    /// transport, the pipeline, a queue), at most `timeout` seconds: from then on nothing can
    /// call one, and ``count`` is final.
    ///
    /// - Parameter timeout: How long to wait, in seconds; it only bounds how long a failure
    ///   takes to show.
    /// - Returns: `true` once none is held; `false` when one still was after `timeout`.
    public func released(timeout: TimeInterval = 120) async -> Bool {
        await handlers.all(timeout: timeout)
    }

    /// Every value recorded so far, in order.
    public var all: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }

    /// When the completion was first called: a test that bounds how long a call took measures
    /// to this instant, not to when the test itself ran again, which a loaded machine can
    /// delay by seconds (other tests hold the cooperative threads).
    public var firstRecordedAt: ContinuousClock.Instant? {
        lock.lock()
        defer { lock.unlock() }
        return firstRecorded
    }

    /// How many times the completion has been called so far.
    public var count: Int { all.count }

    /// The first value, waiting at most `timeout` seconds for it; `nil` when none came in time.
    ///
    /// The default only bounds how long a failure takes to show: with 456 tests sharing two
    /// cores in a fresh-clone CI run, stubbed answers took over 5 s to arrive.
    ///
    /// - Parameter timeout: How long to wait, in seconds, when nothing has been recorded yet.
    public func first(timeout: TimeInterval = 120) async -> Value? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            lock.lock()
            if let first = values.first {
                lock.unlock()
                continuation.resume(returning: first)
                return
            }
            let id = waiters.add(continuation)
            lock.unlock()
            TimedWaiters<Value?>.expire(after: timeout) { [self] in
                lock.lock()
                let waiter = waiters.remove(id)
                lock.unlock()
                waiter?.resume(returning: nil)
            }
        }
    }
}
