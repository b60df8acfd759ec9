/// Why a retry the ``RetryPolicy`` called for was not made: carried by
/// ``RequestContext/retryRefusal`` of the call's outcome.
///
/// ```swift
/// if error.context.retryRefusal == .budgetExhausted {
///     // the host failed for many calls at once: back off before trying again
/// }
/// ```
///
/// An error's description says it as a sentence (`…; not retried: the host's retry budget is
/// spent`).
public enum RetryRefusal: Sendable, Hashable {
    /// The policy's ``RetryBudget`` for the host was spent: too many retries for the recent
    /// first attempts.
    case budgetExhausted

    /// A sentence naming the reason, for an error's description.
    var sentence: String {
        switch self {
        case .budgetExhausted: "the host's retry budget is spent"
        }
    }
}
