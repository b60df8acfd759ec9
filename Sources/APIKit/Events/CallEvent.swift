/// One moment of one call, as a ``Session``'s ``Session/onCallEvent`` observer receives it: which
/// call, when, and what happened (``Stage``).
///
/// Every call — ``Request/response(using:options:progress:)``, `perform`, ``Request/stream(using:options:maximumBufferSize:)``
/// and `download` — reports the same stages in the same order, whatever the transport:
///
/// 1. ``Stage/callStarted``;
/// 2. for each attempt: ``Stage/attemptStarted(_:)``, then what the links of the chain report
///    (``Stage/queued(host:)`` and ``Stage/dequeued(host:waited:)`` from a ``TrafficControl``),
///    ``Stage/requestSent(_:)`` when the request is handed to the transport and
///    ``Stage/responseHead(_:timeToFirstByte:)`` when its response head is back;
///    between attempts ``Stage/retryScheduled(delay:reason:)`` or
///    ``Stage/credentialRefresh``; ``Stage/retryRefused(_:)`` when a ``RetryBudget`` refuses
///    one;
/// 3. ``Stage/bodyEnded(bytes:)`` when the body of the response the call keeps has been
///    received (a body in memory at once, a stream's when its last chunk arrived);
/// 4. exactly one end: ``Stage/finished(_:)``, ``Stage/failed(_:_:)`` or ``Stage/cancelled(_:)``,
///    each carrying the call's ``CallMetrics``. Nothing follows the end.
///
/// Events of one call reach the observer one at a time, in that order; events of different
/// calls may interleave: ``callID`` tells them apart. The observer runs where the event happens:
/// in the call's task, on the transport's thread, and — for a completion-handler call — on the
/// thread that called `perform` (``Stage/callStarted``) or ``RequestHandle/cancel()`` (the
/// end of a call cancelled that way): keep it quick, and never wait there for the thread that
/// started or cancels the call (`DispatchQueue.main.sync` when `cancel()` runs on main
/// deadlocks).
///
/// ```swift
/// let api = Session(onCallEvent: { event in
///     if case .finished(let metrics) = event.stage {
///         print("#\(event.callID) \(event.context): \(metrics.attempts) attempts in \(metrics.duration)")
///     }
/// })
/// ```
public struct CallEvent: Sendable {
    /// Numbers the observed calls of this process, from 1: the same for every event of a call.
    public let callID: Int
    /// The call: its request type, method, URL and the number of the attempt under way
    /// (``RequestContext/attempts``).
    public let context: RequestContext
    /// When it happened: the time since the call started.
    public let time: Duration
    /// What happened.
    public let stage: Stage

    init(callID: Int, context: RequestContext, time: Duration, stage: Stage) {
        self.callID = callID
        self.context = context
        self.time = time
        self.stage = stage
    }
}
