import APIKit
import APIKitTestSupport
import APIKitTestTime
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The table of `RoadSequenceTests` over the transport of this run and real servers: for each
/// scenario a server can produce, `response()`, `perform`, `stream()` and `download(to:)`
/// (plain and resumable) call the same hooks in the same order and end at the same stage, except where ``differences``
/// says why not. httpbin answers the statuses and the credentials; the fault server cuts a body
/// off (`/short-body`), never answers (`/never`) and sends a head, one byte, then nothing for a
/// minute (`/drip?interval=60`). A call is cancelled at a signal it gives — an interceptor
/// waiting, the transport handed the request, the first body byte received — never after a
/// time.
@Suite(
    "One road over a real server: the same hooks in the same order for every way of calling",
    .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason),
    .enabled(if: FaultServer.url != nil, FaultServer.skipReason))
struct RoadSequenceIntegrationTests {
    typealias Road = APIKitTestSupport.Road
    typealias Scenario = RoadScenario
    typealias Seen = RoadSeen

    @Test(
        "each road calls the hooks of the response road, in its order, and ends at its stage",
        arguments: Scenario.allCases)
    func sameSequence(scenario: Scenario) async throws {
        for road in Road.allCases {
            guard let seen = try await run(scenario, on: road) else {
                #expect(Self.table.excludes(scenario, on: road), "\(road) in \(scenario) did not run")
                continue
            }
            let expected = Self.table.expected(scenario, on: road)
            #expect(seen == expected, "\(road) in \(scenario) over \(TestTransport.kind)")
        }
    }

    /// What each road does in each scenario.
    static let table = RoadTable(reference: reference, differences: differences)

    /// What the response road does in each scenario: the reference the other roads are held to.
    static let reference: [Scenario: Seen] = {
        let prepared = ["intercept(urlRequest:)"]
        let sent = ["adapt", "send -"]
        let attempt = sent + ["inspect"]
        return [
            .success: Seen(events: prepared + attempt + ["intercept(urlResponse:)"], outcome: "ok"),
            .unauthorizedThenRefreshed: Seen(
                events: prepared + attempt + ["refresh", "adapt", "send fresh", "inspect", "intercept(urlResponse:)"],
                outcome: "ok"),
            .unavailableThenRetried: Seen(
                events: prepared + attempt + attempt + ["intercept(urlResponse:)"], outcome: "responseValidation"),
            .requestInterceptThrows: Seen(events: prepared, outcome: "requestInterceptor"),
            .interceptorThrowsBeforeNext: Seen(events: prepared + ["adapt"], outcome: "requestInterceptor"),
            .interceptorThrowsAfterNext: Seen(events: prepared + attempt, outcome: "responseValidation"),
            .statusRejected: Seen(
                events: prepared + attempt + ["intercept(urlResponse:)"], outcome: "responseValidation"),
            .transportFails: Seen(events: prepared + sent + sent, outcome: "transport"),
            // every transport reports the cut as a lost connection, which is retried
            .bodyCutOff: Seen(events: prepared + sent + sent, outcome: "transport"),
            .cancelledBeforeCall: Seen(events: [], outcome: "cancelled"),
            .cancelledBeforeNext: Seen(events: prepared + ["adapt", "adapt cancelled"], outcome: "cancelled"),
            .cancelledWhileSending: Seen(events: prepared + sent, outcome: "cancelled"),
            .cancelledInBody: Seen(events: prepared + sent, outcome: "cancelled"),
            .cancelledAfterNext: Seen(events: prepared + attempt + ["inspect cancelled"], outcome: "cancelled"),
        ]
    }()

    /// Where a road does not do what the response road does, and why (as in `RoadSequenceTests`);
    /// `nil` for a scenario the road cannot be put in.
    static let differences: [Scenario: [Road: Seen?]] = {
        let prepared = ["intercept(urlRequest:)"]
        let attempt = ["adapt", "send -", "inspect"]
        return [
            // a stream's chain returns at the head: the body fails in the caller's hands, past retrying
            .bodyCutOff: [
                .stream: Seen(events: prepared + attempt + ["intercept(urlResponse:)"], outcome: "transport")
            ],
            // `perform` is cancelled through its handle, which exists once the call has started
            .cancelledBeforeCall: [.perform: nil],
            // a stream's caller has the head before the body; the other roads get it with the body
            .cancelledInBody: [
                .stream: Seen(events: prepared + attempt + ["intercept(urlResponse:)"], outcome: "cancelled")
            ],
        ]
    }()
}

extension RoadSequenceIntegrationTests {
    /// The signals a call gives on its way, for a scenario to cancel it at.
    struct Signals: Sendable {
        /// The transport was handed a request.
        let sent = CompletionProbe<Void>()
        /// A body byte has arrived: the progress of a whole-body call or a download, a stream's
        /// first chunk.
        let body = CompletionProbe<Void>()
        /// The session's interceptor waits for the cancellation.
        let waiting = CompletionProbe<Void>()

        /// Waits for the moment `scenario` cancels its call at; `false` when it does not cancel.
        func reached(_ scenario: Scenario) async -> Bool {
            switch scenario {
            case .cancelledBeforeNext, .cancelledAfterNext: _ = await waiting.first()
            case .cancelledWhileSending: _ = await sent.first()
            case .cancelledInBody: _ = await body.first()
            default: return false
            }
            return true
        }

        /// The progress handler of a call: tells `body` when a byte has arrived.
        var progress: @Sendable (TransferProgress) -> Void {
            { [body] step in if step.bytesReceived > 0 { body.record(()) } }
        }
    }

    /// The events of one call of `road` in `scenario`, and how it ended; `nil` when the road
    /// cannot be put in the scenario.
    func run(_ scenario: Scenario, on road: Road) async throws -> Seen? {
        if scenario == .cancelledBeforeCall, road == .perform { return nil }
        let log = RoadLog()
        let signals = Signals()
        var interceptor = RoadInterceptor(log: log, waiting: signals.waiting)
        switch scenario {
        case .interceptorThrowsBeforeNext: interceptor.adapt = .fail
        case .interceptorThrowsAfterNext: interceptor.inspect = .fail
        case .cancelledBeforeNext: interceptor.adapt = .waitForCancellation
        case .cancelledAfterNext: interceptor.inspect = .waitForCancellation
        default: break
        }
        let session = Session(
            transport: RoadTransport(base: TestTransport.make(), log: log, sent: signals.sent),
            interceptors: [interceptor],
            retryPolicy: RetryPolicy(maxAttempts: 2, backoff: .init(baseDelay: 0), maxRetryAfter: 0),
            credentialStore: CredentialStore(RoadAuthenticator(log: log)))
        let url = scenario.url
        let request = RoadRequest(
            base: url, path: "", log: log, failsBeforeSending: scenario == .requestInterceptThrows)
        // the progress handler only where its signal is waited for: the other calls take the road
        // without one
        let progress = scenario == .cancelledInBody ? signals.progress : nil
        let scratch = try ScratchDirectory()
        let destination = scratch.url.appendingPathComponent("body")

        let outcome: Result<Void, RequestError>
        if road == .perform {
            let probe = CompletionProbe<Result<Data, RequestError>>()
            let handle = request.perform(using: session, progress: progress, completion: probe.handler)
            if await signals.reached(scenario) { handle.cancel() }
            outcome = try #require(await probe.first()).map { _ in }
            #expect(await probe.released(), "perform in \(scenario) still holds its completion")
            #expect(probe.count == 1, "perform in \(scenario) completed \(probe.count) times")
        } else {
            let call = Task {
                if scenario == .cancelledBeforeCall { withUnsafeCurrentTask { $0?.cancel() } }
                return await Self.call(
                    road, request, session: session, destination: destination, progress: progress,
                    signals: signals)
            }
            if await signals.reached(scenario) { call.cancel() }
            outcome = await call.value
        }
        switch outcome {
        case .success: return Seen(events: log.all, outcome: "ok")
        case .failure(let error): return Seen(events: log.all, outcome: "\(error.stage)")
        }
    }

    /// One call of an async road, to its end.
    private static func call(
        _ road: Road, _ request: RoadRequest, session: Session, destination: URL,
        progress: (@Sendable (TransferProgress) -> Void)?,
        signals: Signals
    ) async -> Result<Void, RequestError> {
        do throws(RequestError) {
            switch road {
            case .response, .perform:
                _ = try await request.response(using: session, progress: progress)
            case .stream:
                for try await _ in request.stream(using: session) { signals.body.record(()) }
            case .download, .resumableDownload:
                _ = try await request.download(
                    to: destination, using: session, resumable: road == .resumableDownload, progress: progress)
            }
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}

extension RoadScenario {
    /// Where the call goes: httpbin's `/bearer` refuses the call without a token and takes the
    /// refreshed one (not `/basic-auth`: its 401 carries `WWW-Authenticate`, on which corelibs'
    /// URLSession waits forever for a credential — swift-corelibs-foundation issue 5456);
    /// `/status/503` and `/status/404`; a refused connection (the discard port, closed); the
    /// fault server's `/short-body` (1,000 bytes promised, 10 sent, the connection closed),
    /// `/never` (cancelled once the transport has the request) and `/drip` (cancelled once the
    /// first body byte has arrived).
    var url: URL {
        let httpbin = HTTPBin.url ?? URL(string: "http://127.0.0.1:9")!
        let fault = FaultServer.url ?? URL(string: "http://127.0.0.1:9")!
        switch self {
        case .unauthorizedThenRefreshed: return httpbin.appendingPathComponent("bearer")
        case .unavailableThenRetried: return httpbin.appendingPathComponent("status/503")
        case .statusRejected: return httpbin.appendingPathComponent("status/404")
        case .transportFails: return URL(string: "http://127.0.0.1:9/closed")!
        case .bodyCutOff: return fault.appendingPathComponent("short-body")
        case .cancelledWhileSending: return fault.appendingPathComponent("never")
        case .cancelledInBody:
            return URL(string: fault.appendingPathComponent("drip").absoluteString + "?interval=60")!
        default: return httpbin.appendingPathComponent("bytes/64")
        }
    }
}
