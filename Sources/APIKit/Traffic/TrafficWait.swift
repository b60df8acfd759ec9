/// A call that waited in a ``TrafficControl`` queue: for how long, and how the wait ended.
///
/// ``TrafficControl`` hands one to its `onWait` observer when a call that had to wait leaves
/// the queue — sent on, or cancelled. A call that found a free slot and no pause never waited
/// and is not reported, so an observer costs nothing while limits are not reached.
///
/// ```swift
/// let traffic = TrafficControl(maxCallsInFlightPerHost: 4) { wait in
///     print("\(wait.host): waited \(wait.duration)")
/// }
/// ```
public struct TrafficWait: Sendable {
    /// The host the call waited for: the URL's host, lowercased, with the port when the URL
    /// names one.
    public var host: String
    /// The call, as its interceptors see it (``RequestContext/attempts`` numbers the attempt
    /// that waited: a retry waits again).
    public var context: RequestContext
    /// How long the call waited, on the ``TrafficControl``'s clock.
    public var duration: Duration
    /// Whether the wait ended because the call was cancelled; nothing was sent then.
    public var wasCancelled: Bool

    /// A wait, as ``TrafficControl`` reports it.
    ///
    /// - Parameters:
    ///   - host: The host waited for.
    ///   - context: The call.
    ///   - duration: How long it waited.
    ///   - wasCancelled: Whether the call was cancelled while waiting.
    public init(host: String, context: RequestContext, duration: Duration, wasCancelled: Bool) {
        self.host = host
        self.context = context
        self.duration = duration
        self.wasCancelled = wasCancelled
    }
}
