import APIKit
import APIKitTestSupport
import APIKitTestTime
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A thread-safe, ordered list of the hooks a call went through.
final class RoadLog: Sendable {
    private let events = Protected<[String]>([])

    func append(_ event: String) {
        events.withLock { $0.append(event) }
    }

    var all: [String] { events.withLock { $0 } }
}

/// A request that logs its own hooks and checks the status as every request does by default.
struct RoadRequest: Request, RequestConfiguration {
    var base: URL
    var path: String
    let log: RoadLog
    var failsBeforeSending = false
    var method: HTTPMethod { .get }
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    /// Generous: the slow answers of the scenarios are cancelled long before.
    var options: RequestOptions { RequestOptions(timeout: 120) }

    func intercept(urlRequest: URLRequest) throws -> URLRequest {
        log.append("intercept(urlRequest:)")
        if failsBeforeSending { throw RoadFailure.requestIntercept }
        return urlRequest
    }

    func intercept(urlResponse: URLResponse) throws {
        log.append("intercept(urlResponse:)")
        try validateStatusCode(of: urlResponse)
    }
}

enum RoadFailure: Error {
    case requestIntercept, adapt, inspect
}

/// A session's interceptor that logs `adapt` and `inspect`, and can fail in either or wait there
/// for the call's cancellation (logging `<hook> cancelled`), telling `waiting` when it does.
struct RoadInterceptor: AdaptingInterceptor {
    enum Behaviour: Sendable {
        case pass, fail, waitForCancellation
    }

    let log: RoadLog
    let waiting: CompletionProbe<Void>
    var adapt = Behaviour.pass
    var inspect = Behaviour.pass

    func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
        log.append("adapt")
        try await behave(adapt, hook: "adapt", failure: .adapt)
        return urlRequest
    }

    func inspect(_ urlResponse: URLResponse, data: Data, for context: RequestContext) async throws {
        log.append("inspect")
        try await behave(inspect, hook: "inspect", failure: .inspect)
    }

    private func behave(_ behaviour: Behaviour, hook: String, failure: RoadFailure) async throws {
        switch behaviour {
        case .pass:
            return
        case .fail:
            throw failure
        case .waitForCancellation:
            waiting.record(())
            do {
                // far longer than any run: only the cancellation ends it
                try await Task.sleep(for: .seconds(3600))
            } catch {
                log.append("\(hook) cancelled")
                throw error
            }
        }
    }
}

/// Sends its credential as a bearer token and in `X-Credential`; a refresh logs `refresh` and
/// hands out `fresh`.
struct RoadAuthenticator: Authenticator {
    let log: RoadLog

    func apply(_ credential: String, to urlRequest: inout URLRequest) throws {
        urlRequest.setValue("Bearer \(credential)", forHTTPHeaderField: "Authorization")
        urlRequest.setValue(credential, forHTTPHeaderField: "X-Credential")
    }

    func refresh() async throws -> String {
        log.append("refresh")
        return "fresh"
    }
}

/// Passes every transfer to `base`, logging `send <credential>` as it starts, and telling `sent`.
struct RoadTransport: Transport {
    let base: any Transport
    let log: RoadLog
    let sent: CompletionProbe<Void>

    private func note(_ request: URLRequest) {
        log.append("send \(request.value(forHTTPHeaderField: "X-Credential") ?? "-")")
        sent.record(())
    }

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        note(request)
        return base.send(request, progress: progress, completion: completion)
    }

    func send(_ request: URLRequest) async throws -> TransportResponse {
        note(request)
        return try await base.send(request)
    }

    func stream(
        _ request: URLRequest,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> any TransportTask {
        note(request)
        return base.stream(request, onEvent: onEvent)
    }

    func download(
        _ request: URLRequest,
        to fileURL: URL,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<URLResponse, any Error>) -> Void
    ) -> any TransportTask {
        note(request)
        return base.download(request, to: fileURL, progress: progress, completion: completion)
    }
}
