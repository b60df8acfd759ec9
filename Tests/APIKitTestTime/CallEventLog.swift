public import APIKit
import APIKitTestSupport
import Foundation

/// Records what a session's ``Session/onCallEvent`` receives, call by call, and lets a test
/// wait for calls to end: the unit tests and the integration suite (over both transports)
/// compare the stages calls went through.
///
/// ```swift
/// let log = CallEventLog()
/// let session = Session(transport: stub, onCallEvent: log.observer)
/// _ = try await TextRequest().response(using: session)
/// #expect(log.names == ["callStarted", "attemptStarted(1)", "requestSent", "responseHead(200)", ...])
/// ```
public final class CallEventLog: Sendable {
    private let events = Protected<[CallEvent]>([])
    private let ends = CompletionProbe<Int>()

    /// An empty log.
    public init() {}

    /// The observer to set on a session.
    public var observer: @Sendable (CallEvent) -> Void {
        { [events, ends] event in
            events.append(event)
            switch event.stage {
            case .finished, .failed, .cancelled: ends.record(event.callID)
            default: break
            }
        }
    }

    /// Every event, in the order received.
    public var all: [CallEvent] { events.value }

    /// The ids of the calls seen, in the order they started.
    public var callIDs: [Int] {
        all.reduce(into: [Int]()) { ids, event in if !ids.contains(event.callID) { ids.append(event.callID) } }
    }

    /// The events of call `id`, in order.
    public func events(of id: Int) -> [CallEvent] { all.filter { $0.callID == id } }

    /// The names of the stages of call `id` (the only call, or the first, by default).
    public func names(of id: Int? = nil) -> [String] {
        guard let id = id ?? callIDs.first else { return [] }
        return events(of: id).map(\.stage.name)
    }

    /// The names of the stages of the first call.
    public var names: [String] { names() }

    /// The summary the first call (or call `id`) ended with.
    public func metrics(of id: Int? = nil) -> CallMetrics? {
        guard let id = id ?? callIDs.first else { return nil }
        return events(of: id).lazy.compactMap(\.stage.metrics).first
    }

    /// Waits until `count` calls have ended (within 120 s); whether they did.
    public func waitForEnds(_ count: Int = 1) async -> Bool {
        for _ in 0..<12_000 {
            if ends.count >= count { return true }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return false
    }
}

extension CallEvent.Stage {
    /// The stage's name with what every transport reports the same way: the attempt number,
    /// the status, the retry reason's kind, the cache outcome; no timings, no byte counts.
    public var name: String {
        switch self {
        case .callStarted: "callStarted"
        case .queued: "queued"
        case .dequeued: "dequeued"
        case .attemptStarted(let number): "attemptStarted(\(number))"
        case .requestSent: "requestSent"
        case .responseHead(let head, _): "responseHead(\((head as? HTTPURLResponse)?.statusCode ?? 0))"
        case .bodyEnded: "bodyEnded"
        case .retryScheduled(_, .status(let status)): "retryScheduled(\(status))"
        case .retryScheduled(_, .retryAfter(let status, _)): "retryScheduled(\(status), Retry-After)"
        case .retryScheduled(_, .error): "retryScheduled(error)"
        case .retryRefused: "retryRefused"
        case .credentialRefresh: "credentialRefresh"
        case .cacheOutcome(let outcome): "cacheOutcome(\(outcome))"
        case .finished: "finished"
        case .failed(let error, _): "failed(\(error.stage))"
        case .cancelled: "cancelled"
        }
    }

    /// The summary of an end.
    public var metrics: CallMetrics? {
        switch self {
        case .finished(let metrics), .failed(_, let metrics), .cancelled(let metrics): metrics
        default: nil
        }
    }
}
