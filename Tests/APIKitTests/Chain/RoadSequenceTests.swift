import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

/// Every way of calling runs one attempt sequence: for the same scenario, `response()`,
/// `perform`, `stream()` and `download(to:)` call the same hooks — the request's, the session's
/// interceptors, the credential store, the transport — in the same order, and end at the same
/// stage. Only the body differs: parsed, streamed or written to a file (the parser's events are
/// left out of the comparison).
@Suite("One road: the same hooks in the same order for every way of calling")
struct RoadSequenceTests {
    enum Road: String, CaseIterable, Sendable {
        case response, perform, stream, download
    }

    enum Scenario: String, CaseIterable, Sendable {
        case success
        case unauthorizedThenRefreshed
        case unavailableThenRetried
        case requestInterceptThrows
        case interceptorThrowsBeforeNext
        case interceptorThrowsAfterNext
        case statusRejected
        case transportFails
    }

    /// Logs "refresh" and hands out "fresh".
    struct LoggingAuthenticator: Authenticator {
        let log: EventLog

        func apply(_ credential: String, to urlRequest: inout URLRequest) throws {
            urlRequest.setValue("Bearer \(credential)", forHTTPHeaderField: "Authorization")
        }

        func refresh() async throws -> String {
            log.append("refresh")
            return "fresh"
        }
    }

    /// The events of one call of `road` in `scenario`, and how it ended (`ok` or the stage).
    private func run(_ scenario: Scenario, on road: Road) async throws -> (events: [String], outcome: String) {
        let log = EventLog()
        let sends = Locked(0)
        let transport = StubTransport { request in
            let send = sends.withLock { count in
                count += 1
                return count
            }
            log.append("send \(request.headerValue("Authorization") ?? "-")")
            switch scenario {
            case .unauthorizedThenRefreshed where send == 1: return .success(status: 401, body: "expired")
            case .unavailableThenRetried where send == 1: return .success(status: 503, body: "busy")
            case .statusRejected: return .success(status: 404, body: "missing")
            case .transportFails: return .failure(URLError(.cannotConnectToHost))
            default: return .success(body: "ok")
            }
        }
        var interceptor = RecordingInterceptor(name: "A", log: log)
        if scenario == .interceptorThrowsBeforeNext { interceptor.adaptBehaviour = .fail(ProbeFailure(stage: "adapt")) }
        if scenario == .interceptorThrowsAfterNext {
            interceptor.inspectBehaviour = .fail(ProbeFailure(stage: "inspect"))
        }
        let waits = WaitRecorder()
        let session = Session(
            transport: transport,
            interceptors: [interceptor],
            retryPolicy: RetryPolicy(maxAttempts: 2, backoff: .init(baseDelay: 0)),
            credentialStore: CredentialStore(LoggingAuthenticator(log: log), credential: "old")
        ).timed(by: waits)
        let request = ProbeRequest(
            base: stubBase, failing: scenario == .requestInterceptThrows ? .requestInterceptor : nil, log: log)

        let outcome: Result<Void, RequestError>
        switch road {
        case .response:
            outcome = await request.result(session: session).map { _ in }
        case .perform:
            let probe = CompletionProbe<Result<String, RequestError>>()
            request.perform(using: session, completion: probe.handler)
            outcome = try #require(await probe.first()).map { _ in }
        case .stream:
            do {
                for try await _ in request.stream(using: session) {}
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
        case .download:
            let scratch = try ScratchDirectory()
            do {
                _ = try await request.download(to: scratch.url.appendingPathComponent("body"), using: session)
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
        }
        let events = log.names.filter { $0 != "parse" && $0 != "response(from:)" }
        switch outcome {
        case .success: return (events, "ok")
        case .failure(let error): return (events, "\(error.stage)")
        }
    }

    @Test(
        "each road calls the hooks of the response road, in its order, and ends at its stage",
        arguments: Scenario.allCases)
    func sameSequence(scenario: Scenario) async throws {
        let reference = try await run(scenario, on: .response)
        for road in Road.allCases where road != .response {
            let seen = try await run(scenario, on: road)
            #expect(seen.events == reference.events, "\(road) in \(scenario)")
            #expect(seen.outcome == reference.outcome, "\(road) in \(scenario)")
        }
        #expect(reference.events == Self.expected[scenario], "the response road in \(scenario)")
    }

    /// What the response road does in each scenario: the reference the other roads are held to.
    static let expected: [Scenario: [String]] = {
        let prepared = ["build", "intercept(urlRequest:)"]
        let attempt = ["adapt A", "send Bearer old", "inspect A"]
        return [
            .success: prepared + attempt + ["intercept(urlResponse:)"],
            .unauthorizedThenRefreshed: prepared + attempt + ["refresh", "adapt A", "send Bearer fresh", "inspect A"]
                + ["intercept(urlResponse:)"],
            .unavailableThenRetried: prepared + attempt + attempt + ["intercept(urlResponse:)"],
            .requestInterceptThrows: prepared,
            .interceptorThrowsBeforeNext: prepared + ["adapt A"],
            .interceptorThrowsAfterNext: prepared + attempt,
            .statusRejected: prepared + attempt + ["intercept(urlResponse:)"],
            // a transport failure is retried: cannotConnectToHost is transient
            .transportFails: prepared + ["adapt A", "send Bearer old", "adapt A", "send Bearer old"],
        ]
    }()
}
