/// The vocabulary of the two road tables — `RoadSequenceTests` over `StubTransport` and
/// `RoadSequenceIntegrationTests` over real servers and both transports: the ways of calling
/// (the four methods, and a download both plain and resumable, which write their files by
/// different transport calls), the scenarios each is put in, what one call did, and what each road is expected to
/// do. Each table says how it produces a scenario (a stub's answer, a server's route) and what
/// its hooks log; the comparison is the same.
public enum Road: String, CaseIterable, Sendable {
    case response, perform, stream, download, resumableDownload
}

/// A situation every road is put in.
public enum RoadScenario: String, CaseIterable, Sendable {
    case success
    /// A `401`, a credential refresh, and the replay with the fresh credential.
    case unauthorizedThenRefreshed
    /// A `503`, retried once, refused again.
    case unavailableThenRetried
    /// The request's `intercept(urlRequest:)` throws.
    case requestInterceptThrows
    /// The session's interceptor throws before calling `next`.
    case interceptorThrowsBeforeNext
    /// The session's interceptor throws after `next` returned.
    case interceptorThrowsAfterNext
    /// A status the request does not accept.
    case statusRejected
    /// The transport fails, retried once.
    case transportFails
    /// The head promises more bytes than the body brings.
    case bodyCutOff
    /// The caller's task is cancelled before the call.
    case cancelledBeforeCall
    /// Cancelled while the session's interceptor runs, before its `next`.
    case cancelledBeforeNext
    /// Cancelled once the transport has the request, before an answer.
    case cancelledWhileSending
    /// Cancelled after the head, while the body is awaited.
    case cancelledInBody
    /// Cancelled while the session's interceptor runs, after its `next` returned.
    case cancelledAfterNext
}

/// What one call did: the hooks it called, in order, and how it ended (`ok` or the stage).
public struct RoadSeen: Equatable, Sendable, CustomStringConvertible {
    /// The hooks and middlewares the call went through, as its table logs them.
    public var events: [String]
    /// `ok`, or the stage of the error the call ended with.
    public var outcome: String

    /// What a call did: `events`, then `outcome`.
    public init(events: [String], outcome: String) {
        self.events = events
        self.outcome = outcome
    }

    /// The events, then the outcome, as a failed expectation shows them.
    public var description: String { "\(events) → \(outcome)" }
}

/// What each road is expected to do in each scenario: what the response road does
/// (``reference``), unless ``differences`` says otherwise and why.
public struct RoadTable: Sendable {
    /// What the response road does in each scenario: the reference the other roads are held to.
    public let reference: [RoadScenario: RoadSeen]
    /// Where a road does not do what the response road does; `nil` for a scenario the road
    /// cannot be put in.
    public let differences: [RoadScenario: [Road: RoadSeen?]]

    /// A table holding the response road's `reference` and the other roads' `differences`.
    public init(reference: [RoadScenario: RoadSeen], differences: [RoadScenario: [Road: RoadSeen?]]) {
        self.reference = reference
        self.differences = differences
    }

    /// What `road` does in `scenario`; `nil` when it cannot be put in it.
    public func expected(_ scenario: RoadScenario, on road: Road) -> RoadSeen? {
        if let difference = differences[scenario]?[road] { return difference }
        return reference[scenario]
    }

    /// Whether the table says that `road` cannot be put in `scenario`.
    public func excludes(_ scenario: RoadScenario, on road: Road) -> Bool {
        differences[scenario]?[road] == .some(nil)
    }
}
