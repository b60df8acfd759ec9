/// Why a retry the ``RetryPolicy`` called for was not made: carried by
/// ``RequestContext/retryRefusal`` of the call's outcome.
///
/// ```swift
/// if error.context.retryRefusal == .budgetExhausted {
///     // the host failed for many calls at once: back off before trying again
/// }
/// ```
public enum RetryRefusal: Sendable, Hashable, CustomStringConvertible {
    /// The policy's ``RetryBudget`` for the host was spent: too many retries for the recent
    /// first attempts.
    case budgetExhausted

    /// A sentence naming the reason.
    public var description: String {
        switch self {
        case .budgetExhausted: "the host's retry budget is spent"
        }
    }
}
