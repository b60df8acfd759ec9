/// Where the pipeline processes the response and calls the completion: a chosen queue, or
/// where the transport calls back (a `URLSession`'s delegate queue).
struct Delivery: Sendable {
    /// The transport, whose delegate queue takes outcomes that do not come from it when it
    /// is a caller's `URLSession`. Kept as is: the cast is made only when such an outcome is delivered,
    /// not for every request.
    let transport: any Transport
    let queue: DispatchQueue?

    init(transport: any Transport, queue: DispatchQueue?) {
        self.transport = transport
        self.queue = queue
    }

    /// Runs `work` later: on the chosen queue, as an operation on the `URLSession`'s delegate
    /// queue, or on a global queue for other transports. Used for outcomes that do not come
    /// from the transport (a build error, a cancellation, the end of an interceptor), so that
    /// the completion is never called on the caller's thread.
    func async(_ work: @escaping @Sendable () -> Void) {
        if let queue {
            queue.async(execute: work)
        } else if let shared = transport as? SharedURLSessionTransport {
            shared.urlSession.delegateQueue.addOperation(work)
        } else {
            DispatchQueue.global().async(execute: work)
        }
    }
}
