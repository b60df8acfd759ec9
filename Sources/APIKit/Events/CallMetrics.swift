/// The summary of one call, carried by its last ``CallEvent``: how many attempts, how long it
/// waited and took, and how many bytes went each way.
///
/// Durations are measured on the session's clock, from the call's start, except
/// ``queueWait``, measured by the ``TrafficControl``s that held it (on their clock; a wait that
/// the call's end cut short, a cancellation, on the session's, from its `queued` event).
///
/// ```swift
/// let api = Session(onCallEvent: { event in
///     if case .finished(let metrics) = event.stage, metrics.queueWait > .seconds(1) {
///         print("\(event.context) waited \(metrics.queueWait) for a slot")
///     }
/// })
/// ```
public struct CallMetrics: Sendable, Hashable {
    /// The attempts sent to the transport: 0 for a call that ended before sending (a build
    /// error, a cancellation in a queue, an answer from a cache).
    public var attempts: Int
    /// The time spent waiting in ``TrafficControl`` queues, all attempts together.
    public var queueWait: Duration
    /// From the call's start to the head of the response it kept (for a download, to its file
    /// being complete; for a `304` validation, the `304`'s); `nil` when no response came from
    /// the transport (a failure, a cache hit, a link's own answer).
    public var timeToResponseHead: Duration?
    /// From the call's start to its end.
    public var duration: Duration
    /// The request body bytes sent, all attempts together, as far as they are known (a body
    /// stream of unknown length counts 0).
    public var bytesSent: Int64
    /// The body bytes received of the response the call kept.
    public var bytesReceived: Int64

    init(
        attempts: Int = 0, queueWait: Duration = .zero, timeToResponseHead: Duration? = nil,
        duration: Duration = .zero, bytesSent: Int64 = 0, bytesReceived: Int64 = 0
    ) {
        self.attempts = attempts
        self.queueWait = queueWait
        self.timeToResponseHead = timeToResponseHead
        self.duration = duration
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
    }
}
