import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

// MARK: - Recording

/// A thread-safe, ordered log of the stages a request went through.
///
/// When it is given a queue key, each event also records the tag of the queue it ran on.
final class EventLog: @unchecked Sendable {
    // @unchecked: `events` is only touched with `lock` held; `queueKey` is immutable.
    struct Event: Equatable, Sendable {
        var name: String
        var queueTag: String?
    }

    private let lock = NSLock()
    private var events: [Event] = []
    private let queueKey: DispatchSpecificKey<String>?

    init(queueKey: DispatchSpecificKey<String>? = nil) {
        self.queueKey = queueKey
    }

    func append(_ name: String) {
        let tag = queueKey.flatMap { DispatchQueue.getSpecific(key: $0) }
        lock.lock()
        events.append(Event(name: name, queueTag: tag))
        lock.unlock()
    }

    var all: [Event] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }

    var names: [String] { all.map(\.name) }
}

extension Request where Response: Sendable {
    /// Performs the request on the stub session and returns its probe once the first
    /// completion arrived (or the timeout passed). The completion is the probe's
    /// ``CompletionProbe/handler``: `await probe.released()` tells when it can no longer be
    /// called.
    func performProbed(
        session: URLSession = StubURLProtocol.session,
        completionQueue: DispatchQueue = .global(),
        timeout: TimeInterval = 120
    ) async -> (result: Result<Response, RequestError>?, probe: CompletionProbe<Result<Response, RequestError>>) {
        let probe = CompletionProbe<Result<Response, RequestError>>()
        perform(session: session, completionQueue: completionQueue, completion: probe.handler)
        return (await probe.first(timeout: timeout), probe)
    }
}

// MARK: - Requests

/// The error the probe request throws from the stage it is told to fail at.
struct ProbeFailure: Error, Equatable, CustomStringConvertible {
    var stage: String
    var description: String { "probe failure at \(stage)" }
}

/// A configuration property that logs "build" when the encoder reads its headers.
struct BuildProbe: HeaderProtocol, Sendable {
    let log: EventLog
    var headerFields: [HeaderField] {
        log.append("build")
        return []
    }
}

/// A parser that logs "parse" and reads the body as UTF-8, or throws.
struct ProbeParser: Parser, Sendable {
    let log: EventLog
    var fails = false

    var contentType: String? { nil }

    func parse(data: Data) throws -> String {
        log.append("parse")
        if fails { throw ProbeFailure(stage: "parse") }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A request that logs every stage and can be told to fail at one of its own hooks.
struct ProbeRequest: Request, RequestConfiguration {
    enum Hook: Sendable {
        case requestInterceptor, responseInterceptor, parser, responseConversion
    }

    @Header("Authorization") var authorization: String? = nil
    @Query("token") var token: String? = nil
    @Field("password") var password: String? = nil
    let buildProbe: BuildProbe

    var base: URL
    var path = "probe"
    var method: HTTPMethod = .get
    let log: EventLog
    var failing: Hook?

    init(base: URL, method: HTTPMethod = .get, failing: Hook? = nil, log: EventLog = EventLog()) {
        self.base = base
        self.method = method
        self.failing = failing
        self.log = log
        self.buildProbe = BuildProbe(log: log)
    }

    var configuration: Self { self }

    var parser: ProbeParser { ProbeParser(log: log, fails: failing == .parser) }

    func intercept(urlRequest: URLRequest) throws -> URLRequest {
        log.append("intercept(urlRequest:)")
        if failing == .requestInterceptor { throw ProbeFailure(stage: "intercept(urlRequest:)") }
        var request = urlRequest
        request.setValue("yes", forHTTPHeaderField: "X-Intercepted")
        return request
    }

    func intercept(urlResponse: URLResponse) throws {
        log.append("intercept(urlResponse:)")
        if failing == .responseInterceptor { throw ProbeFailure(stage: "intercept(urlResponse:)") }
        try validateStatusCode(of: urlResponse)
    }

    func response(from object: String, urlResponse: URLResponse) throws -> String {
        log.append("response(from:)")
        if failing == .responseConversion { throw ProbeFailure(stage: "response(from:)") }
        return object
    }
}

/// A request with the default interceptors, a logging parser and `Response == String`.
struct DefaultHooksRequest: Request, RequestConfiguration {
    var base: URL
    var path = "plain"
    var method: HTTPMethod = .get
    let log: EventLog

    init(base: URL, method: HTTPMethod = .get, log: EventLog = EventLog()) {
        self.base = base
        self.method = method
        self.log = log
    }

    var configuration: Self { self }
    var parser: ProbeParser { ProbeParser(log: log) }
}

/// A request that accepts the status codes in `acceptable`, via `validateStatusCode(of:acceptable:)`.
struct CustomRangeRequest: Request, RequestConfiguration {
    var base: URL
    var path = "range"
    var method: HTTPMethod { .get }
    var acceptable: Range<Int>

    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }

    func intercept(urlResponse: URLResponse) throws {
        try validateStatusCode(of: urlResponse, acceptable: acceptable)
    }
}

extension URLRequest {
    /// A header value, looked up case-insensitively.
    func headerValue(_ name: String) -> String? {
        allHTTPHeaderFields?.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

extension Result {
    /// The error, or `nil` on success.
    var errorValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
