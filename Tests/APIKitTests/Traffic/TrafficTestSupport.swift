import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

/// A transport that holds every send until the test answers it, and keeps the URL of every
/// request it was sent, in order.
final class GateTransport: Transport {
    private struct Held {
        let url: URL
        let answer: @Sendable (Int, [String: String]) -> Void
        let fail: @Sendable (any Error) -> Void
    }

    private let state = Locked<(held: [Held], arrivals: [URL])>(([], []))

    /// The URLs sent, in arrival order.
    var arrivals: [URL] { state.withLock { $0.arrivals } }
    /// The paths sent (last component), in arrival order.
    var paths: [String] { arrivals.map(\.lastPathComponent) }
    var heldCount: Int { state.withLock { $0.held.count } }

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        let url = request.url!
        let answered = Locked(false)
        let answer: @Sendable (Result<TransportResponse, any Error>) -> Void = { result in
            guard
                answered.withLock({ done in
                    defer { done = true }; return !done
                })
            else { return }
            completion(result)
        }
        state.withLock { state in
            state.arrivals.append(url)
            state.held.append(
                Held(
                    url: url,
                    answer: { status, headers in
                        let head = HTTPURLResponse(
                            url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
                        answer(.success(TransportResponse(data: Data("ok".utf8), urlResponse: head)))
                    },
                    fail: { error in answer(.failure(error)) }))
        }
        return GateTask { answer(.failure(URLError(.cancelled))) }
    }

    /// Waits until `count` sends are held at once.
    func waitForHeld(_ count: Int) async -> Bool {
        await eventually { self.heldCount >= count }
    }

    /// Waits until `count` sends have arrived, held or answered.
    func waitForArrivals(_ count: Int) async -> Bool {
        await eventually { self.arrivals.count >= count }
    }

    /// Answers the oldest held send (to `host`, when given).
    func answer(host: String? = nil, status: Int = 200, headers: [String: String] = [:]) {
        let held = state.withLock { state -> Held? in
            guard let index = state.held.firstIndex(where: { host == nil || $0.url.host == host }) else { return nil }
            return state.held.remove(at: index)
        }
        held?.answer(status, headers)
    }

    /// Fails the oldest held send with `error`, as a transport that could not reach the server.
    func fail(with error: any Error) {
        let held = state.withLock { state -> Held? in state.held.isEmpty ? nil : state.held.removeFirst() }
        held?.fail(error)
    }

    private struct GateTask: TransportTask {
        let onCancel: @Sendable () -> Void
        func cancel() { onCancel() }
    }
}

let otherBase = URL(string: "https://other.example.test/v1")!

extension TrafficControl {
    /// The calls waiting, all hosts together.
    var waitingCount: Int { queue.waitingCount }
    /// Waits until `count` calls wait in the queue.
    func waitForWaiting(_ count: Int) async -> Bool {
        await eventually { self.waitingCount >= count }
    }
}

/// A `TrafficControl` in a `Session` over a `GateTransport`, on a clock the test moves, with every
/// event of the session's calls.
struct TrafficRig {
    let transport = GateTransport()
    let clock: ManualClock
    let traffic: TrafficControl
    let session: Session
    /// The session's call events, in the order they were reported.
    let events = Locked<[CallEvent]>([])

    /// A wait in the traffic control's queue, as the call's events tell it.
    struct Wait: Equatable {
        var host: String
        /// The last path component of the call's URL.
        var path: String?
        /// How long it waited on the rig's clock; `nil` when the call was cancelled while it waited.
        var waited: Duration?
    }

    init(
        maxCallsInFlight: Int? = nil, maxCallsInFlightPerHost: Int? = nil, requestsPerSecondPerHost: Double? = nil,
        burstPerHost: Int = 1, maxPause: TimeInterval = 60
    ) {
        let clock = ManualClock()
        let events = self.events
        self.clock = clock
        traffic = TrafficControl(
            maxCallsInFlight: maxCallsInFlight, maxCallsInFlightPerHost: maxCallsInFlightPerHost,
            requestsPerSecondPerHost: requestsPerSecondPerHost, burstPerHost: burstPerHost, maxPause: maxPause,
            clock: clock)
        session = Session(transport: transport, interceptors: [traffic]) { event in
            events.withLock { $0.append(event) }
        }
    }

    /// Each call's wait in the queue, in the order the waits ended: a `dequeued` event, or the
    /// `cancelled` end of a call whose last queue event was `queued`.
    var waits: [Wait] {
        var queuedHost: [Int: String] = [:]
        var waits: [Wait] = []
        for event in events.withLock({ $0 }) {
            let path = event.context.url?.lastPathComponent
            switch event.stage {
            case .queued(let host): queuedHost[event.callID] = host
            case .dequeued(let host, let waited):
                queuedHost[event.callID] = nil
                waits.append(Wait(host: host, path: path, waited: waited))
            case .cancelled:
                if let host = queuedHost.removeValue(forKey: event.callID) {
                    waits.append(Wait(host: host, path: path, waited: nil))
                }
            default: break
            }
        }
        return waits
    }

    /// A call to `path` on `base`, started and awaited in a task.
    func call(_ path: String, base: URL = stubBase) -> Task<Result<String, RequestError>, Never> {
        let session = session
        return Task { await TextRequest(base: base, path: path).result(session: session) }
    }

    /// Starts a call to `path` on `base` and waits until it is either sent or waiting, so that
    /// the calls of a test reach the queue in the order they are started.
    func start(_ path: String, base: URL = stubBase) async -> Task<Result<String, RequestError>, Never> {
        let before = transport.arrivals.count + traffic.waitingCount
        let task = call(path, base: base)
        #expect(await eventually { transport.arrivals.count + traffic.waitingCount > before })
        return task
    }

    /// Waits until the pause's timer sleeps on the clock.
    func paused() async -> Bool {
        await eventually { clock.sleeperCount > 0 }
    }
}
