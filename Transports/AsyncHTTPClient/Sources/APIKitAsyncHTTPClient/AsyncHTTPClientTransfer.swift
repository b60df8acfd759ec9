import APIKit
import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request through an ``AsyncHTTPClientTransport``: converts it, runs it against the idle
/// timeout, collects the response and calls the completion exactly once.
///
/// Progress and the completion share a lock, so no progress is reported once the completion
/// has been decided (the request body may still be pulled by the client after a server
/// answered early).
final class AsyncHTTPClientTransfer: Sendable {
    private struct State {
        var progress: TransferProgress
        var isFinished = false
        /// When something was last sent or received, in `NIODeadline` uptime nanoseconds.
        var lastActivity: UInt64
    }

    private let request: URLRequest
    private let progress: ProgressHandler?
    private let completion: @Sendable (Result<TransportResponse, any Error>) -> Void
    private let state: NIOLockedValueBox<State>

    init(
        request: URLRequest,
        progress: ProgressHandler?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) {
        self.request = request
        self.progress = progress
        self.completion = completion
        self.state = NIOLockedValueBox(
            State(progress: TransferProgress(), lastActivity: NIODeadline.now().uptimeNanoseconds))
    }

    /// Runs the transfer and calls the completion, once, however it ends.
    func run(on client: HTTPClient) async {
        let result: Result<TransportResponse, any Error>
        do {
            result = .success(try await exchangeWithinTimeout(on: client))
        } catch {
            result = .failure(
                Task.isCancelled
                    ? URLError(.cancelled, underlying: error, url: request.url)
                    : URLError.mapping(error, url: request.url))
        }
        state.withLockedValue { $0.isFinished = true }
        completion(result)
    }

    /// The exchange, raced against the idle timeout when the request has one.
    private func exchangeWithinTimeout(on client: HTTPClient) async throws -> TransportResponse {
        let outgoing = try OutgoingRequest(request, onChunkSent: { [self] count in sent(count) })
        if let total = outgoing.expectedBytesToSend {
            report { $0.expectedBytesToSend = total }
        }
        guard let idleTimeout = outgoing.idleTimeout else {
            return try await exchange(outgoing, on: client)
        }
        if outgoing.headDeadline != .distantFuture {
            // AsyncHTTPClient's deadline covers the response head (and fails with the last
            // connection error); the idle clock starts a little later so that it loses that race.
            state.withLockedValue { $0.lastActivity += 500_000_000 }
        }
        return try await withThrowingTaskGroup(of: TransportResponse?.self) { group in
            group.addTask { try await self.exchange(outgoing, on: client) }
            group.addTask {
                try await self.watchIdleness(limit: idleTimeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else { throw CancellationError() }
            return response
        }
    }

    /// Sends the request and collects the response body.
    private func exchange(_ outgoing: OutgoingRequest, on client: HTTPClient) async throws -> TransportResponse {
        let response = try await client.execute(outgoing.request, deadline: outgoing.headDeadline)
        touch()
        if outgoing.bytesInMemory > 0 {
            report { $0.bytesSent = outgoing.bytesInMemory }
        }
        let expected = response.headers.first(name: "content-length").flatMap { Int64($0) }
        var data = Data()
        if let expected, expected > 0 { data.reserveCapacity(Int(min(expected, 16 << 20))) }
        for try await buffer in response.body {
            data.append(contentsOf: buffer.readableBytesView)
            let count = Int64(buffer.readableBytes)
            report {
                $0.bytesReceived += count
                $0.expectedBytesToReceive = expected
            }
        }
        return TransportResponse(data: data, urlResponse: try HTTPURLResponse.make(response, requestURL: request.url))
    }

    /// Throws `URLError(.timedOut)` once nothing was sent or received for `limit` seconds.
    private func watchIdleness(limit: TimeInterval) async throws {
        let limit = UInt64(limit * 1_000_000_000)
        while true {
            let last = state.withLockedValue { $0.lastActivity }
            let now = NIODeadline.now().uptimeNanoseconds
            let idleUntil = last &+ limit
            if now >= idleUntil {
                throw URLError(.timedOut, underlying: nil, url: request.url)
            }
            try await Task.sleep(nanoseconds: idleUntil - now)
        }
    }

    private func sent(_ count: Int) {
        report { $0.bytesSent += Int64(count) }
    }

    private func touch() {
        state.withLockedValue { $0.lastActivity = max($0.lastActivity, NIODeadline.now().uptimeNanoseconds) }
    }

    /// Updates the progress and reports it, unless the completion was decided.
    private func report(_ update: (inout TransferProgress) -> Void) {
        let now = NIODeadline.now().uptimeNanoseconds
        state.withLockedValue { state in
            guard !state.isFinished else { return }
            state.lastActivity = max(state.lastActivity, now)
            update(&state.progress)
            // Under the lock: the completion cannot be decided while a report is running.
            progress?(state.progress)
        }
    }
}

extension HTTPURLResponse {
    /// The Foundation response for what AsyncHTTPClient received: the final URL after
    /// redirects, the status, the HTTP version and the headers (those that came more than once
    /// joined with ", ").
    ///
    /// - Throws: `URLError(.badServerResponse)` when Foundation refuses the response.
    static func make(_ response: HTTPClientResponse, requestURL: URL?) throws -> HTTPURLResponse {
        var fields: [String: String] = [:]
        for (name, value) in response.headers {
            if let existing = fields[name] {
                fields[name] = existing + ", " + value
            } else {
                fields[name] = value
            }
        }
        let version = response.version
        guard let url = response.url ?? requestURL,
            let made = HTTPURLResponse(
                url: url,
                statusCode: Int(response.status.code),
                httpVersion: version.major >= 2 ? "HTTP/\(version.major)" : "HTTP/\(version.major).\(version.minor)",
                headerFields: fields)
        else { throw URLError(.badServerResponse, underlying: nil, url: requestURL) }
        return made
    }
}
