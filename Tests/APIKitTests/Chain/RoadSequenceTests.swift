import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

/// Every way of calling runs one attempt sequence: for the same scenario, `response()`,
/// `perform`, `stream()` and `download(to:)`, plain and resumable, call the same hooks — the request's, the session's
/// interceptors, the credential store, the transport — in the same order, and end at the same
/// stage. Only the body differs: parsed, streamed or written to a file (the parser's events are
/// left out of the comparison). Where a road differs, ``differences`` says so and why.
@Suite("One road: the same hooks in the same order for every way of calling")
struct RoadSequenceTests {
    typealias Road = APIKitTestSupport.Road
    typealias Scenario = RoadScenario
    typealias Seen = RoadSeen

    /// The moment a scenario cancels the call at: each is a signal the call gives, never a time.
    enum Cancellation: Sendable {
        /// The caller's task is cancelled before the call is made.
        case beforeCall
        /// The session's interceptor is waiting (for the cancellation).
        case interceptorWaiting
        /// The stub received the request.
        case sent
        /// The head has arrived and the body is awaited: the stream's caller has the head, the
        /// download's transport has delivered it. A road that reads the body whole gets head and
        /// body at once from `Transport.send`: it is cancelled once the stub has the request.
        case inBody
    }

    @Test(
        "each road calls the hooks of the response road, in its order, and ends at its stage",
        arguments: Scenario.allCases)
    func sameSequence(scenario: Scenario) async throws {
        let reference = try #require(try await run(scenario, on: .response))
        #expect(reference == Self.table.expected(scenario, on: .response), "the response road in \(scenario)")
        for road in Road.allCases where road != .response {
            guard let seen = try await run(scenario, on: road) else {
                #expect(Self.table.excludes(scenario, on: road), "\(road) in \(scenario) did not run")
                continue
            }
            #expect(seen == Self.table.expected(scenario, on: road), "\(road) in \(scenario)")
        }
    }

    /// What each road does in each scenario.
    static let table = RoadTable(reference: reference, differences: differences)

    /// What the response road does in each scenario: the reference the other roads are held to.
    static let reference: [Scenario: Seen] = {
        let prepared = ["build", "intercept(urlRequest:)"]
        let sent = ["adapt A", "send Bearer old"]
        let attempt = sent + ["inspect A"]
        return [
            .success: Seen(events: prepared + attempt + ["intercept(urlResponse:)"], outcome: "ok"),
            .unauthorizedThenRefreshed: Seen(
                events: prepared + attempt + ["refresh", "adapt A", "send Bearer fresh", "inspect A"]
                    + ["intercept(urlResponse:)"],
                outcome: "ok"),
            .unavailableThenRetried: Seen(
                events: prepared + attempt + attempt + ["intercept(urlResponse:)"], outcome: "ok"),
            .requestInterceptThrows: Seen(events: prepared, outcome: "requestInterceptor"),
            .interceptorThrowsBeforeNext: Seen(events: prepared + ["adapt A"], outcome: "requestInterceptor"),
            .interceptorThrowsAfterNext: Seen(events: prepared + attempt, outcome: "responseValidation"),
            .statusRejected: Seen(
                events: prepared + attempt + ["intercept(urlResponse:)"], outcome: "responseValidation"),
            // a transport failure is retried: cannotConnectToHost is transient
            .transportFails: Seen(events: prepared + sent + sent, outcome: "transport"),
            // the transport reports the cut (a lost connection), which is retried
            .bodyCutOff: Seen(events: prepared + sent + sent, outcome: "transport"),
            // nothing is built or sent
            .cancelledBeforeCall: Seen(events: [], outcome: "cancelled"),
            .cancelledBeforeNext: Seen(events: prepared + ["adapt A", "adapt A cancelled"], outcome: "cancelled"),
            .cancelledWhileSending: Seen(events: prepared + sent, outcome: "cancelled"),
            .cancelledInBody: Seen(events: prepared + sent, outcome: "cancelled"),
            .cancelledAfterNext: Seen(events: prepared + attempt + ["inspect A cancelled"], outcome: "cancelled"),
        ]
    }()

    /// Where a road does not do what the response road does, and why; `nil` for a scenario the
    /// road cannot be put in.
    static let differences: [Scenario: [Road: Seen?]] = {
        let prepared = ["build", "intercept(urlRequest:)"]
        let attempt = ["adapt A", "send Bearer old", "inspect A"]
        return [
            // A stream's chain returns at the head, before the body: the interceptor sees the head
            // and the request checks it, then the body fails in the caller's hands, where no retry
            // can take back the elements already yielded.
            .bodyCutOff: [
                .stream: Seen(events: prepared + attempt + ["intercept(urlResponse:)"], outcome: "transport")
            ],
            // `perform` is cancelled through the handle it returns, once the call has started:
            // there is no "before" to cancel it in (its caller's task is not its own).
            .cancelledBeforeCall: [.perform: nil],
            // A stream's caller has the head before the body: the interceptor and the request's
            // check ran. A download's head comes back through the chain with the whole file, and
            // the whole-body roads' with the whole body: none of them has it yet.
            .cancelledInBody: [
                .stream: Seen(events: prepared + attempt + ["intercept(urlResponse:)"], outcome: "cancelled")
            ],
        ]
    }()
}

extension RoadScenario {
    /// Where the call is cancelled, if it is. The stub answers `cancelledWhileSending` only when
    /// its clock, which no one moves, reaches the answer; in `cancelledInBody` it sends the head,
    /// then its body waits for that clock. In `bodyCutOff` the head promises 10 bytes
    /// (`Content-Length`) and the body ends after 2.
    var cancellation: RoadSequenceTests.Cancellation? {
        switch self {
        case .cancelledBeforeCall: .beforeCall
        case .cancelledBeforeNext, .cancelledAfterNext: .interceptorWaiting
        case .cancelledWhileSending: .sent
        case .cancelledInBody: .inBody
        default: nil
        }
    }
}
