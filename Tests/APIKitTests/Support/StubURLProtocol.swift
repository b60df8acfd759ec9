@_spi(Testing) import APIKit
import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What ``StubURLProtocol`` answers for one host.
struct StubbedResponse: Sendable {
    enum Answer: Sendable {
        /// An HTTP response with a body, delivered in one piece.
        case http(statusCode: Int, headers: [String: String], body: Data)
        /// A transport failure, delivered to the session as it is.
        case failure(any Error)
    }

    var answer: Answer
    /// Seconds to wait before answering; a cancelled load never answers.
    var delay: TimeInterval = 0
    /// What `delay` is measured by: the real time, or a ``ManualTime`` the test moves.
    var time: any TimeSource = SystemTime()
    /// Called with the request as the stub received it, before answering.
    var onRequest: (@Sendable (URLRequest) -> Void)? = nil

    static func status(
        _ statusCode: Int,
        body: String = "",
        headers: [String: String] = [:],
        delay: TimeInterval = 0,
        onRequest: (@Sendable (URLRequest) -> Void)? = nil
    ) -> StubbedResponse {
        StubbedResponse(
            answer: .http(statusCode: statusCode, headers: headers, body: Data(body.utf8)),
            delay: delay,
            onRequest: onRequest
        )
    }

    static func failure(_ code: URLError.Code, delay: TimeInterval = 0) -> StubbedResponse {
        StubbedResponse(answer: .failure(URLError(code)), delay: delay)
    }

    static func failure(_ error: any Error, delay: TimeInterval = 0) -> StubbedResponse {
        StubbedResponse(answer: .failure(error), delay: delay)
    }
}

/// The canned responses, keyed by URL host, and the requests each host received.
final class StubRegistry: @unchecked Sendable {
    // @unchecked: every stored property is only touched with `lock` held.
    private let lock = NSLock()
    private var responses: [String: StubbedResponse] = [:]
    private var received: [String: [URLRequest]] = [:]
    private var stops: [String: CompletionProbe<Void>] = [:]
    private var arrivals: [String: CompletionProbe<Void>] = [:]

    func register(_ response: StubbedResponse, host: String) {
        lock.lock()
        defer { lock.unlock() }
        responses[host] = response
    }

    func requests(host: String) -> [URLRequest] {
        lock.lock()
        defer { lock.unlock() }
        return received[host] ?? []
    }

    /// What records the loads of `host` that URLSession stopped (`stopLoading()`), one entry each.
    func stops(host: String) -> CompletionProbe<Void> {
        probe(\.stops, host: host)
    }

    /// Whether URLSession has stopped a load of `host` within `timeout` seconds; see
    /// ``StubEndpoint/stopped(timeout:)``.
    func stopped(host: String, timeout: TimeInterval = 20) async -> Bool {
        await stops(host: host).first(timeout: timeout) != nil
    }

    /// What records the loads of `host` that started, one entry each.
    func arrivals(host: String) -> CompletionProbe<Void> {
        probe(\.arrivals, host: host)
    }

    /// The probe of `host` in `table`, made on first use.
    private func probe(
        _ table: ReferenceWritableKeyPath<StubRegistry, [String: CompletionProbe<Void>]>, host: String
    ) -> CompletionProbe<Void> {
        lock.lock()
        defer { lock.unlock() }
        if let probe = self[keyPath: table][host] { return probe }
        let probe = CompletionProbe<Void>()
        self[keyPath: table][host] = probe
        return probe
    }

    /// Records `request` and returns the answer registered for its host.
    func receive(_ request: URLRequest) -> StubbedResponse? {
        let host = request.url?.host ?? ""
        lock.lock()
        received[host, default: []].append(request)
        let response = responses[host]
        lock.unlock()
        arrivals(host: host).record(())
        return response
    }
}

/// One stubbed server: a unique host whose answer is fixed when it is created.
struct StubEndpoint: Sendable {
    let host: String

    init(_ response: StubbedResponse) {
        host = "\(UUID().uuidString.lowercased()).stub.test"
        StubURLProtocol.registry.register(response, host: host)
    }

    /// A base URL on this host with a path prefix.
    var base: URL { URL(string: "https://\(host)/api")! }

    /// The requests the stub has received for this host, in order.
    var receivedRequests: [URLRequest] { StubURLProtocol.registry.requests(host: host) }

    /// Whether URLSession has stopped a load of this host (called `stopLoading()`, as it does
    /// once it has taken in a task's cancellation) within `timeout` seconds.
    ///
    /// A test that cancels a task and then makes the stub's answer come due waits for this
    /// first: corelibs takes in a cancellation on its own queue, after APIKit has already
    /// reported it, and a stub answering a task corelibs is still cancelling sets off a race of
    /// corelibs' own (it traps in `TaskRegistry`, "a behaviour for a task that in not in the
    /// registry") — a race no caller can close, and not the thing such a test checks.
    func stopped(timeout: TimeInterval = 20) async -> Bool {
        await StubURLProtocol.registry.stopped(host: host, timeout: timeout)
    }

    /// Whether a load of this host has started within `timeout` seconds: a test that cancels a
    /// request in flight waits for this first (a call runs in a task of its own, and one
    /// cancelled before that task sends is never sent at all).
    func arrived(timeout: TimeInterval = 120) async -> Bool {
        await StubURLProtocol.registry.arrivals(host: host).first(timeout: timeout) != nil
    }
}

/// A `URLProtocol` that answers every request of its session from ``StubRegistry``, with no network.
///
/// On Linux `URLProtocol.registerClass` is ignored for http(s), so the stub is only reachable
/// through ``StubURLProtocol/session`` (or another session configured with `protocolClasses`).
final class StubURLProtocol: URLProtocol {
    static let registry = StubRegistry()

    /// An ephemeral session without a cache that sends everything to the stub.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    /// Set by `stopLoading()`; a stopped load never answers.
    private let stopped = Protected(false)

    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let request = self.request
        guard let stub = Self.registry.receive(request) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        stub.onRequest?(request)
        if stub.delay > 0 {
            let loader = UncheckedLoader(self)
            _ = stub.time.schedule(after: stub.delay) { loader.value.deliver(stub.answer) }
        } else {
            deliver(stub.answer)
        }
    }

    override func stopLoading() {
        stopped.withLock { $0 = true }
        Self.registry.stops(host: request.url?.host ?? "").record(())
    }

    private func deliver(_ answer: StubbedResponse.Answer) {
        guard !stopped.value, let client else { return }
        switch answer {
        case .http(let statusCode, let headers, let body):
            guard
                let url = request.url,
                let response = HTTPURLResponse(
                    url: url,
                    statusCode: statusCode,
                    httpVersion: "HTTP/1.1",
                    headerFields: headers
                )
            else {
                client.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
                return
            }
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            if !body.isEmpty {
                // corelibs keeps only the last chunk as the task's data: deliver it in one piece.
                client.urlProtocol(self, didLoad: body)
            }
            client.urlProtocolDidFinishLoading(self)
        case .failure(let error):
            client.urlProtocol(self, didFailWithError: error)
        }
    }
}

/// Carries the protocol instance to the delayed answer. URLSession owns the instance and
/// calls it from its own queues; the only state the stub mutates is behind `stopped`'s lock.
private struct UncheckedLoader: @unchecked Sendable {
    let value: StubURLProtocol

    init(_ value: StubURLProtocol) {
        self.value = value
    }
}
