extension CallEvent {
    /// A stage reported by a link that only the pipeline reports: the call's start, its
    /// attempts, its request, response head and body, and its end.
    ///
    /// ```swift
    /// do { try context.report(.callStarted) } catch { print(error) }   // ReservedStage
    /// ```
    public struct ReservedStage: Error, CustomStringConvertible {
        /// The stage reported.
        let stage: Stage

        /// A sentence naming the stage (not its values: a request's URL may carry secrets).
        public var description: String {
            "a link reported \(name), a stage only the pipeline reports"
        }

        private var name: String {
            switch stage {
            case .callStarted: "callStarted"
            case .attemptStarted: "attemptStarted"
            case .requestSent: "requestSent"
            case .responseHead: "responseHead"
            case .bodyEnded: "bodyEnded"
            case .finished: "finished"
            case .failed: "failed"
            case .cancelled: "cancelled"
            case .queued, .dequeued, .retryScheduled, .retryRefused, .credentialRefresh, .cacheOutcome: "a link's stage"
            }
        }
    }
}
