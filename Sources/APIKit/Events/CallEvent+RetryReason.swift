extension CallEvent {
    /// Why a ``RetryPolicy`` sends a request again.
    ///
    /// ```swift
    /// if case .retryScheduled(_, .retryAfter(let status, let seconds)) = event.stage {
    ///     print("\(status): the server asked for \(seconds) s")
    /// }
    /// ```
    public enum RetryReason: Sendable {
        /// The response had a status the policy retries.
        case status(Int)
        /// The response had a status the policy retries and a `Retry-After` of `seconds`,
        /// which set the delay.
        case retryAfter(status: Int, seconds: TimeInterval)
        /// The transport failed with an error the policy retries.
        case error(any Error)
    }
}
