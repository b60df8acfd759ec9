extension RequestContext {
    /// Reports a stage of the call this context belongs to, to the session's
    /// ``Session/onCallEvent`` observer: how a link of the chain — the library's
    /// ``TrafficControl``, retry and credential links, or an ``Interceptor`` of your own — tells
    /// what it did.
    ///
    /// Does nothing when the session has no observer, or once the call has ended. The event
    /// carries the call's id, context and time, and is delivered in order with the call's other
    /// events.
    ///
    /// ```swift
    /// struct MemoryCache: Interceptor {
    ///     let store: ResponseStore   // an actor
    ///
    ///     func intercept(
    ///         _ urlRequest: URLRequest, context: RequestContext,
    ///         next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ///     ) async throws -> CallResponse {
    ///         if let stored = await store.response(for: urlRequest) {
    ///             try context.report(.cacheOutcome(.hit))
    ///             return stored
    ///         }
    ///         try context.report(.cacheOutcome(.miss))
    ///         return try await next(urlRequest)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter stage: What happened: ``CallEvent/Stage/queued(host:)``,
    ///   ``CallEvent/Stage/dequeued(host:waited:)``,
    ///   ``CallEvent/Stage/retryScheduled(delay:reason:)``, ``CallEvent/Stage/retryRefused(_:)``,
    ///   ``CallEvent/Stage/credentialRefresh`` or ``CallEvent/Stage/cacheOutcome(_:)``.
    /// - Throws: ``CallEvent/ReservedStage`` for a stage only the pipeline reports (the call's
    ///   start, attempts, request, response head, body and end), whether or not anyone observes.
    public func report(_ stage: CallEvent.Stage) throws(CallEvent.ReservedStage) {
        guard stage.isReportable else { throw CallEvent.ReservedStage(stage: stage) }
        events?.report(stage)
    }
}
