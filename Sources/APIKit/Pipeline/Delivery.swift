import Foundation

/// Where a completion-handler call runs once it waits, and where its outcome is delivered: a
/// chosen dispatch queue, an operation queue (a caller's `URLSession`'s delegate queue), or a
/// global queue — never the thread that started the call, and never a thread of Swift's
/// cooperative pool, where a completion that blocks would hold up other tasks.
///
/// ``run(_:deliver:)`` starts the call's task in the caller's thread (the
/// transfer starts there, as a data task's would), and the task continues on this queue when
/// the transport answers: the response stages and the completion then run where the task already is, with
/// no hop of their own — for `perform(session:)`, on the delegate queue that delivered the
/// data task's completion. One object per call. (`Task.immediate` needs Swift 6.2 and, on
/// Apple platforms, OS 26: before, the task starts on the cooperative pool and only the delivery
/// hops to the queue.)
final class Delivery: Sendable {
    let queue: DispatchQueue?
    let operationQueue: OperationQueue?
    /// Set once the task's first stretch, in the caller's thread, has ended: code of the task
    /// that reads it set runs on this queue.
    private let leftCaller = Locked(false)

    /// Where `session`'s completion-handler calls run and deliver.
    init(for session: Session) {
        queue = session.completionQueue
        operationQueue = session.completionOperationQueue
    }

    /// Runs `work` on the chosen queue.
    func async(_ work: @escaping @Sendable () -> Void) {
        if let queue {
            queue.async(execute: work)
        } else if let operationQueue {
            operationQueue.addOperation(work)
        } else {
            DispatchQueue.global().async(execute: work)
        }
    }

    /// Runs `call` in a task of its own and hands what it returns to `deliver` on the chosen
    /// queue; `nil` delivers nothing (the call's handle delivered its cancellation).
    ///
    /// - Returns: The task, to cancel the call.
    func run<Outcome: Sendable>(
        _ call: @escaping @Sendable () async -> Outcome?,
        deliver: @escaping @Sendable (Outcome) -> Void
    ) -> Task<Void, Never> {
        let body: @Sendable () async -> Void = { [self] in
            guard let outcome = await call() else { return }
            // Still in the caller's thread (nothing was awaited), or not known to be here: hop.
            if leftCaller.withLock({ $0 }) { deliver(outcome) } else { async { deliver(outcome) } }
        }
        #if compiler(>=6.2)
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *) {
                let task = Task.immediate(executorPreference: self, operation: body)
                leftCaller.withLock { $0 = true }
                return task
            }
        #endif
        return Task(operation: body)
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
extension Delivery: TaskExecutor {
    /// Runs a job of the call's task on the chosen queue.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
