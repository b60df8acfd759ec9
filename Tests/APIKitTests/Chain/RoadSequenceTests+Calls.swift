import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension RoadSequenceTests {
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

    /// The signals a call gives on its way, for a scenario to cancel it at.
    struct Signals: Sendable {
        /// The stub received a request.
        let sent = CompletionProbe<Void>()
        /// The transport delivered a streamed head (a stream's or a download's).
        let head = CompletionProbe<Void>()
        /// A stream's caller got the head.
        let streamHead = CompletionProbe<Void>()
        /// The session's interceptor waits for the cancellation.
        let waiting = CompletionProbe<String>()

        /// Waits for the moment `cancellation` names on `road`.
        func reached(_ cancellation: Cancellation, on road: Road) async {
            switch (cancellation, road) {
            case (.beforeCall, _): return
            case (.interceptorWaiting, _): _ = await waiting.first()
            case (.sent, _), (.inBody, .response), (.inBody, .perform): _ = await sent.first()
            case (.inBody, .stream): _ = await streamHead.first()
            case (.inBody, .download), (.inBody, .resumableDownload): _ = await head.first()
            }
        }
    }

    /// The events of one call of `road` in `scenario`, and how it ended; `nil` when the road
    /// cannot be put in the scenario.
    func run(_ scenario: Scenario, on road: Road) async throws -> Seen? {
        if scenario.cancellation == .beforeCall, road == .perform { return nil }
        let log = EventLog()
        let signals = Signals()
        let session = Self.session(for: scenario, log: log, signals: signals)
        let request = ProbeRequest(
            base: stubBase, failing: scenario == .requestInterceptThrows ? .requestInterceptor : nil, log: log)
        let scratch = try ScratchDirectory()
        let destination = scratch.url.appendingPathComponent("body")

        let outcome: Result<Void, RequestError>
        if road == .perform {
            let probe = CompletionProbe<Result<String, RequestError>>()
            let handle = request.perform(using: session, completion: probe.handler)
            if let cancellation = scenario.cancellation {
                await signals.reached(cancellation, on: road)
                handle.cancel()
            }
            outcome = try #require(await probe.first()).map { _ in }
            // the call has wound down, its events all logged, and it completed once
            #expect(await probe.released(), "perform in \(scenario) still holds its completion")
            #expect(probe.count == 1, "perform in \(scenario) completed \(probe.count) times")
        } else {
            let call = Task {
                if scenario.cancellation == .beforeCall { withUnsafeCurrentTask { $0?.cancel() } }
                return await Self.call(road, request, session: session, destination: destination, signals: signals)
            }
            if let cancellation = scenario.cancellation {
                await signals.reached(cancellation, on: road)
                call.cancel()
            }
            outcome = await call.value
        }
        let events = log.names.filter { $0 != "parse" && $0 != "response(from:)" }
        switch outcome {
        case .success: return Seen(events: events, outcome: "ok")
        case .failure(let error): return Seen(events: events, outcome: "\(error.stage)")
        }
    }

    /// One call of an async road, to its end.
    private static func call(
        _ road: Road, _ request: ProbeRequest, session: Session, destination: URL, signals: Signals
    ) async -> Result<Void, RequestError> {
        do throws(RequestError) {
            switch road {
            case .response, .perform:
                _ = try await request.response(using: session)
            case .stream:
                var iterator = request.stream(using: session).makeAsyncIterator()
                _ = try await iterator.response()
                signals.streamHead.record(())
                while try await iterator.next() != nil {}
            case .download, .resumableDownload:
                _ = try await request.download(
                    to: destination, using: session, resumable: road == .resumableDownload)
            }
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// The session of `scenario`: a stub transport, one recording interceptor, a retry policy
    /// of two attempts and a credential store.
    private static func session(for scenario: Scenario, log: EventLog, signals: Signals) -> Session {
        let sends = Locked(0)
        // never moved: an answer or a chunk due later waits for its cancellation
        let stopped = ManualTime()
        let stub = StubTransport(time: stopped) { request in
            let send = sends.withLock { count in
                count += 1
                return count
            }
            log.append("send \(request.headerValue("Authorization") ?? "-")")
            signals.sent.record(())
            switch scenario {
            case .unauthorizedThenRefreshed where send == 1: return .success(status: 401, body: "expired")
            case .unavailableThenRetried where send == 1: return .success(status: 503, body: "busy")
            case .statusRejected: return .success(status: 404, body: "missing")
            case .transportFails: return .failure(URLError(.cannotConnectToHost))
            case .bodyCutOff: return .success(headers: ["Content-Length": "10"], body: "ok")
            case .cancelledWhileSending: return .success(body: "ok", delay: 1)
            case .cancelledInBody: return .stream(chunks: ["o", "k"], interval: 1)
            default: return .success(body: "ok")
            }
        }
        var interceptor = RecordingInterceptor(name: "A", log: log, waiting: signals.waiting)
        switch scenario {
        case .interceptorThrowsBeforeNext: interceptor.adaptBehaviour = .fail(ProbeFailure(stage: "adapt"))
        case .interceptorThrowsAfterNext: interceptor.inspectBehaviour = .fail(ProbeFailure(stage: "inspect"))
        case .cancelledBeforeNext: interceptor.adaptBehaviour = .waitForCancellation
        case .cancelledAfterNext: interceptor.inspectBehaviour = .waitForCancellation
        default: break
        }
        return Session(
            transport: TappedTransport(base: stub) { [head = signals.head] event in
                if case .response = event { head.record(()) }
            },
            interceptors: [interceptor],
            retryPolicy: RetryPolicy(maxAttempts: 2, backoff: .init(baseDelay: 0)),
            credentialStore: CredentialStore(LoggingAuthenticator(log: log), credential: "old")
        ).timed(by: WaitRecorder())
    }
}
