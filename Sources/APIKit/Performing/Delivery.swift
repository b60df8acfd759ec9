/// Where `perform` processes the response and calls the completion: a chosen queue, or the
/// session's delegate queue, where `URLSession` already calls back.
struct Delivery: Sendable {
    let session: URLSession
    let queue: DispatchQueue?

    /// Runs `work` later: on the chosen queue, or as an operation on the delegate queue.
    /// Used for outcomes that do not come from the session (a build error, a cancellation),
    /// so that the completion is never called on the caller's thread.
    func async(_ work: @escaping @Sendable () -> Void) {
        if let queue {
            queue.async(execute: work)
        } else {
            session.delegateQueue.addOperation(work)
        }
    }

    /// Runs `work`, called from the session's completion handler: at once, since that
    /// handler already runs on the delegate queue, or on the chosen queue.
    func fromSessionCallback(_ work: @escaping @Sendable () -> Void) {
        if let queue {
            queue.async(execute: work)
        } else {
            work()
        }
    }
}
