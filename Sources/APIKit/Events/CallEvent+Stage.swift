extension CallEvent {
    /// What happened to a call: one stage of its life, with what is known at that moment.
    ///
    /// The pipeline reports the call's own stages (``callStarted``, ``attemptStarted(_:)``,
    /// ``requestSent(_:)``, ``responseHead(_:timeToFirstByte:)``, ``bodyEnded(bytes:)`` and the
    /// ends); the links of the chain report the rest with ``RequestContext/report(_:)`` — the
    /// library's own links as any ``Interceptor`` would.
    ///
    /// ```swift
    /// switch event.stage {
    /// case .retryScheduled(let delay, let reason): print("retry in \(delay): \(reason)")
    /// case .failed(let error, _): print(error)
    /// default: break
    /// }
    /// ```
    public enum Stage: Sendable {
        /// The call started: its request is about to be built.
        case callStarted
        /// A ``TrafficControl`` holds the attempt: its host is full or paused.
        case queued(host: String)
        /// The attempt left the queue to be sent, after waiting `waited` on the
        /// ``TrafficControl``'s clock. An attempt cancelled while it waits ends the call with
        /// ``cancelled(_:)`` instead.
        case dequeued(host: String, waited: Duration)
        /// An attempt, numbered from 1, starts through the chain.
        case attemptStarted(Int)
        /// The request, as the chain hands it to the transport (a resumed download's `Range` and
        /// `If-Range`, set for each attempt after the chain, are not in it).
        case requestSent(URLRequest)
        /// The response head arrived, `timeToFirstByte` after its request was sent. A transport
        /// that delivers the body whole (`response()`, `perform`) reports the head with the body,
        /// and a download once its body is in the file: there `timeToFirstByte` is the transfer's.
        case responseHead(URLResponse, timeToFirstByte: Duration)
        /// The body of the response the call keeps has been received; a response given up for a
        /// retry or a replay has none.
        case bodyEnded(bytes: Int)
        /// The ``RetryPolicy`` sends the request again after `delay`, for `reason`.
        case retryScheduled(delay: Duration, reason: RetryReason)
        /// A retry the policy called for was refused; the call ends with its last outcome.
        case retryRefused(RetryRefusal)
        /// The ``CredentialStore``'s credential was rejected: it is being refreshed, and the
        /// request will be sent once more.
        case credentialRefresh
        /// A cache link answered, or did not.
        case cacheOutcome(CacheOutcome)
        /// The call ended with its response.
        case finished(CallMetrics)
        /// The call ended with `error`.
        case failed(RequestError, CallMetrics)
        /// The call was cancelled.
        case cancelled(CallMetrics)

        /// Whether a link may report this stage: the pipeline reports the call's own.
        var isReportable: Bool {
            switch self {
            case .queued, .dequeued, .retryScheduled, .retryRefused, .credentialRefresh, .cacheOutcome: true
            case .callStarted, .attemptStarted, .requestSent, .responseHead, .bodyEnded, .finished, .failed,
                .cancelled:
                false
            }
        }
    }
}
