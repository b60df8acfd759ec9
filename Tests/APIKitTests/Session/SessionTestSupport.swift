import APIKitTestSupport
import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

/// A session-wide interceptor that logs `adapt <name>` and `inspect <name>`, adds the header
/// `X-<name>: <name>`, and can fail or wait (until its `Task` is cancelled) in either hook.
struct RecordingInterceptor: AdaptingInterceptor {
    enum Behaviour: Sendable {
        case pass
        case fail(any Error)
        /// Sleeps until cancelled; logs "<hook> <name> cancelled" then.
        case waitForCancellation
    }

    let name: String
    let log: EventLog
    var adaptBehaviour: Behaviour = .pass
    var inspectBehaviour: Behaviour = .pass
    /// Records the contexts and requests the interceptor saw.
    var seen: EventLog? = nil
    /// Records "<hook> <name>" when a hook starts waiting for cancellation.
    var waiting: CompletionProbe<String>? = nil
    /// Records "<hook> <name>" when a waiting hook was cancelled.
    var cancelled: CompletionProbe<String>? = nil

    func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
        log.append("adapt \(name)")
        seen?.append("adapt \(name): \(context.requestType) \(urlRequest.headerNames.joined(separator: ","))")
        try await behave(adaptBehaviour, hook: "adapt")
        var request = urlRequest
        request.setValue(name, forHTTPHeaderField: "X-\(name)")
        return request
    }

    func inspect(_ urlResponse: URLResponse, data: Data, for context: RequestContext) async throws {
        log.append("inspect \(name)")
        let status = (urlResponse as? HTTPURLResponse)?.statusCode ?? 0
        seen?.append("inspect \(name): \(status) \(String(decoding: data, as: UTF8.self))")
        try await behave(inspectBehaviour, hook: "inspect")
    }

    private func behave(_ behaviour: Behaviour, hook: String) async throws {
        switch behaviour {
        case .pass:
            return
        case .fail(let error):
            throw error
        case .waitForCancellation:
            waiting?.record("\(hook) \(name)")
            do {
                try await Task.sleep(nanoseconds: 60_000_000_000)
            } catch {
                log.append("\(hook) \(name) cancelled")
                cancelled?.record("\(hook) \(name)")
                throw error
            }
        }
    }
}

/// Wraps a transport and records, synchronously in `send`, each request sent and each
/// result the transport delivered.
struct RecordingTransport: Transport {
    let base: any Transport
    let sent = Locked<[URLRequest]>([])
    let results = CompletionProbe<Result<TransportResponse, any Error>>()
    /// Logs "send" for stage-order tests.
    var log: EventLog? = nil

    init(_ base: any Transport, log: EventLog? = nil) {
        self.base = base
        self.log = log
    }

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        sent.withLock { $0.append(request) }
        log?.append("send")
        return base.send(request, progress: progress) { [results] result in
            results.record(result)
            completion(result)
        }
    }

    var sentRequests: [URLRequest] { sent.withLock { $0 } }
}

extension URLRequest {
    /// The header names, sorted, as sent.
    var headerNames: [String] {
        (allHTTPHeaderFields ?? [:]).keys.sorted()
    }
}

extension Session {
    /// Performs `request` with the completion API and waits (with a timeout) for the first
    /// outcome. The completion is the probe's ``CompletionProbe/handler``: `await
    /// probe.released()` tells when it can no longer be called.
    func performProbed<R: Request>(
        _ request: R,
        options: RequestOptions? = nil,
        timeout: TimeInterval = 120
    ) async -> (result: Result<R.Response, RequestError>?, probe: CompletionProbe<Result<R.Response, RequestError>>)
    where R.Response: Sendable {
        let probe = CompletionProbe<Result<R.Response, RequestError>>()
        perform(request, options: options, completion: probe.handler)
        return (await probe.first(timeout: timeout), probe)
    }
}

extension Request {
    /// The outcome of ``response(using:options:)`` as a `Result`.
    func result(session: Session, options: RequestOptions? = nil) async -> Result<Response, RequestError> {
        do {
            return .success(try await response(using: session, options: options))
        } catch {
            return .failure(error)
        }
    }
}

/// A request with options of its own, which records the `URLRequest` its
/// `intercept(urlRequest:)` sees.
struct OptionsRequest: Request, RequestConfiguration {
    var base: URL
    var path = "options"
    var method: HTTPMethod = .get
    var options: RequestOptions
    let seen = Locked<[URLRequest]>([])

    var configuration: Self { self }
    var parser: StringParser { StringParser() }

    func intercept(urlRequest: URLRequest) throws -> URLRequest {
        seen.withLock { $0.append(urlRequest) }
        return urlRequest
    }
}

/// A stub base URL; `StubTransport` ignores the host.
let stubBase = URL(string: "https://api.example.test/v1")!
