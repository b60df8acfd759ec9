import APIKit
import APIKitTestSupport
import APIKitTestTime
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stages a call reports (``CallEvent``) against real servers, over the transport of this
/// run: the expected sequences are written once, so the run over `URLSessionTransport` and the
/// run over `AsyncHTTPClientTransport` hold both transports to the same sequence, on every road.
/// Stage names only (``CallEvent/Stage/name``): no timings.
@Suite(
    "Call events over a real server: the same stages on every road and every transport",
    .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason),
    .enabled(if: FaultServer.url != nil, FaultServer.skipReason))
struct CallEventIntegrationTests {
    enum Road: String, CaseIterable, Sendable {
        case response, perform, stream, download
    }

    enum Scenario: String, CaseIterable, Sendable {
        case success
        /// The fault server's `/traffic/slow` answering 503 without `Retry-After`, retried once.
        case unavailableThenRetried
        case statusRejected
        /// httpbin's `/bearer`: 401 without a token, 200 with the refreshed one.
        case unauthorizedThenRefreshed
        /// A refused connection (the discard port, closed).
        case transportFails

        var url: URL {
            let httpbin = HTTPBin.url ?? URL(string: "http://127.0.0.1:9")!
            let fault = FaultServer.url ?? URL(string: "http://127.0.0.1:9")!
            switch self {
            case .success: return httpbin.appendingPathComponent("bytes/64")
            case .unavailableThenRetried:
                return URL(string: fault.appendingPathComponent("traffic/slow").absoluteString + "?delay=0&status=503")!
            case .statusRejected: return httpbin.appendingPathComponent("status/404")
            case .unauthorizedThenRefreshed: return httpbin.appendingPathComponent("bearer")
            case .transportFails: return URL(string: "http://127.0.0.1:9/closed")!
            }
        }

        /// The stages every road reports, over every transport.
        var expected: [String] {
            let attempt = { (number: Int, status: Int) in
                ["attemptStarted(\(number))", "requestSent", "responseHead(\(status))"]
            }
            switch self {
            case .success:
                return ["callStarted"] + attempt(1, 200) + ["bodyEnded", "finished"]
            case .unavailableThenRetried:
                return ["callStarted"] + attempt(1, 503) + ["retryScheduled(503)"] + attempt(2, 503)
                    + ["bodyEnded", "failed(responseValidation)"]
            case .statusRejected:
                return ["callStarted"] + attempt(1, 404) + ["bodyEnded", "failed(responseValidation)"]
            case .unauthorizedThenRefreshed:
                return ["callStarted"] + attempt(1, 401) + ["credentialRefresh"] + attempt(2, 200)
                    + ["bodyEnded", "finished"]
            case .transportFails:
                return ["callStarted", "attemptStarted(1)", "requestSent", "failed(transport)"]
            }
        }
    }

    /// Puts the credential on a request as a bearer token, and refreshes it to `fresh`.
    struct FreshToken: Authenticator {
        func apply(_ credential: String, to urlRequest: inout URLRequest) throws {
            urlRequest.setValue("Bearer \(credential)", forHTTPHeaderField: "Authorization")
        }

        func refresh() async throws -> String { "fresh" }
    }

    struct Fetch: Request, RequestConfiguration {
        var base: URL
        var path = ""
        var method: HTTPMethod { .get }
        var configuration: Self { self }
        var parser: RawDataParser { RawDataParser() }
        var options: RequestOptions { RequestOptions(timeout: 30) }
    }

    @Test("Each scenario reports the same stages on every road", arguments: Scenario.allCases)
    func sameStages(scenario: Scenario) async throws {
        for road in Road.allCases {
            let log = CallEventLog()
            let session = Session(
                transport: TestTransport.make(),
                retryPolicy: scenario == .unavailableThenRetried
                    ? RetryPolicy(maxAttempts: 2, backoff: .init(baseDelay: 0), maxRetryAfter: 0) : .never,
                credentialStore: scenario == .unauthorizedThenRefreshed ? CredentialStore(FreshToken()) : nil,
                onCallEvent: log.observer)
            _ = try await Self.call(Fetch(base: scenario.url), on: road, session: session)
            #expect(await log.waitForEnds())
            #expect(log.names == scenario.expected, "\(road) in \(scenario) over \(TestTransport.kind)")
            #expect(log.callIDs.count == 1)
        }
    }

    /// One call on `road`; whether it succeeded.
    private static func call(_ request: Fetch, on road: Road, session: Session) async throws -> Bool {
        switch road {
        case .response:
            return (try? await request.response(using: session)) != nil
        case .perform:
            let probe = CompletionProbe<Bool>()
            request.perform(using: session) { probe.record((try? $0.get()) != nil) }
            return await probe.first() == true
        case .stream:
            do {
                for try await _ in request.stream(using: session) {}
                return true
            } catch {
                return false
            }
        case .download:
            let scratch = try ScratchDirectory("events")
            defer { scratch.remove() }
            return (try? await request.download(to: scratch.file("body"), using: session)) != nil
        }
    }

    /// Holds the first call that reaches it until the test opens it, so that a second call
    /// finds the host full for as long as the test needs.
    final class Gate: Interceptor {
        private let opened = CompletionProbe<Void>()
        private let first = Protected(true)

        func open() { opened.record(()) }

        func intercept(
            _ urlRequest: URLRequest, context: RequestContext,
            next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
        ) async throws -> CallResponse {
            let holds = first.withLock { first in
                defer { first = false }
                return first
            }
            if holds { _ = await opened.first() }
            return try await next(urlRequest)
        }
    }

    /// Waits until the second call of `log` has reported `stage`.
    private static func secondCall(of log: CallEventLog, reaches stage: String) async -> Bool {
        for _ in 0..<12_000 {
            if log.callIDs.count > 1, log.names(of: log.callIDs[1]).contains(stage) { return true }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return false
    }

    @Test("A call over the per-host limit: queued, then dequeued, then sent", arguments: Road.allCases)
    func queuedThenDequeued(road: Road) async throws {
        let log = CallEventLog()
        let gate = Gate()
        let session = Session(
            transport: TestTransport.make(), interceptors: [TrafficControl(maxCallsInFlightPerHost: 1), gate],
            onCallEvent: log.observer)
        let request = Fetch(base: Scenario.success.url)
        let holder = Task { try await request.response(using: session) }
        #expect(await eventually { log.callIDs.count == 1 && log.names.contains("attemptStarted(1)") })
        let queued = Task { try await Self.call(request, on: road, session: session) }
        #expect(await Self.secondCall(of: log, reaches: "queued"))
        gate.open()
        _ = try await holder.value
        #expect(try await queued.value)
        #expect(await log.waitForEnds(2))
        #expect(
            log.names(of: log.callIDs[1]) == [
                "callStarted", "attemptStarted(1)", "queued", "dequeued", "requestSent", "responseHead(200)",
                "bodyEnded", "finished",
            ], "\(road) over \(TestTransport.kind)")
    }

    @Test("A call cancelled while queued: queued, then cancelled, nothing sent")
    func cancelledWhileQueued() async throws {
        let log = CallEventLog()
        let gate = Gate()
        let session = Session(
            transport: TestTransport.make(), interceptors: [TrafficControl(maxCallsInFlightPerHost: 1), gate],
            onCallEvent: log.observer)
        let request = Fetch(base: Scenario.success.url)
        let holder = Task { try await request.response(using: session) }
        #expect(await eventually { log.callIDs.count == 1 && log.names.contains("attemptStarted(1)") })
        let probe = CompletionProbe<RequestError.Stage?>()
        let handle = request.perform(using: session) { result in
            if case .failure(let error) = result { probe.record(error.stage) } else { probe.record(nil) }
        }
        #expect(await Self.secondCall(of: log, reaches: "queued"))
        handle.cancel()
        #expect(await probe.first() == .cancelled)
        gate.open()
        _ = try await holder.value
        #expect(await log.waitForEnds(2))
        #expect(log.names(of: log.callIDs[1]) == ["callStarted", "attemptStarted(1)", "queued", "cancelled"])
    }
}
