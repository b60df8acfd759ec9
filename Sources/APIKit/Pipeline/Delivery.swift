/// Where a completion-handler call's outcome is delivered: a chosen dispatch queue, an
/// operation queue (a caller's `URLSession`'s delegate queue), or a global queue — never the
/// thread that started the call, and never a thread of Swift's cooperative pool, where a
/// completion that blocks would hold up other tasks.
struct Delivery: Sendable {
    /// Where `session`'s completion-handler calls deliver.
    init(for session: Session) {
        queue = session.completionQueue
        operationQueue = session.completionOperationQueue
    }

    let queue: DispatchQueue?
    let operationQueue: OperationQueue?

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
}
