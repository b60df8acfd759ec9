public import APIKit
public import AsyncHTTPClient
import NIOConcurrencyHelpers
public import NIOCore

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// A ``APIKit/Transport`` that sends requests with AsyncHTTPClient (SwiftNIO) instead of
/// `URLSession`: on Linux several times the requests per second of FoundationNetworking, with
/// the TLS, HTTP/2 and connection-pool configuration of an `HTTPClient`.
///
/// Switching transport is one line; everything else (encoding, interceptors, retries,
/// validation, parsing) is APIKit's pipeline and does not change:
///
/// ```swift
/// import APIKit
/// import APIKitAsyncHTTPClient
///
/// let session = Session(transport: AsyncHTTPClientTransport(client: .shared))
/// let user = try await GetUser(id: 42).response(using: session)
/// ```
///
/// What it does with a request:
///
/// - **Body**: every body APIKit builds goes out with its `Content-Length`, read from
///   `URLRequest.requestBody`: bytes in memory written from one buffer in slices of 64 KiB
///   (written again from the first byte when a redirect that keeps the body, 307 or 308, is
///   followed), a file or a multipart body
///   with files streamed from disk in chunks of 64 KiB, never through a temporary file and
///   never chunked. A body stream APIKit did not make (a foreign `httpBodyStream`) has no known
///   length and goes out chunked. `Content-Length` and `Transfer-Encoding` headers on the
///   request are ignored: the body decides its framing.
/// - **Timeout**: `URLRequest.timeoutInterval` is an idle timeout, as with `URLSession`: the
///   transfer fails with `URLError(.timedOut)` when nothing is sent or received for that
///   long, from the start: the wait for a connection and for the response head count. Each
///   slice or chunk of the body the connection takes counts as sent, so a large upload over a
///   slow link does not time out while it moves. A connection that cannot be made
///   (AsyncHTTPClient retrying it) fails with the last connection error (`.cannotConnectToHost`,
///   a refused certificate's) at the client's connect timeout (`configuration.timeout.connect`), or with `.timedOut` at the
///   request's timeout when that comes first — over `HTTPClient.shared`, whose connect timeout
///   is 90 s, at the default 60 s. The client's own read timeout applies too:
///   `HTTPClient.shared`'s 90 s cuts a response silent for longer, whatever `timeoutInterval`
///   says (a long poll or an event stream quiet for minutes needs a client configured with a
///   longer one). Time spent in your code — a stream's `onEvent`, a progress handler — does not
///   count as idle; the progress handler of a body in memory (or none) runs beside the transfer
///   and never holds it back.
/// - **Streams and downloads**: ``stream(_:onEvent:)`` hands each chunk of the response over
///   as AsyncHTTPClient reads it, reading ahead of a consumer that takes its time by about
///   1 MiB at most, so `request.stream(using:)`, server-sent events, JSON lines and
///   `request.download(to:using:)` read the body while it arrives, without holding it whole;
///   the idle timeout applies between chunks, and a stream may outlast it.
/// - **Progress**: upload progress as each slice of a body in memory is written to the
///   connection and as each chunk of a streamed body is handed to AsyncHTTPClient, download
///   progress as each chunk of the response arrives; in order, never after the completion. For
///   a body in memory (or none) the steps are handed to your handler on a serial queue of the
///   transfer's own while the transfer goes on: a handler slower than the network receives
///   fewer steps, each the progress as it is when the handler is called, and, when the transfer
///   succeeds, the last one before the completion is the whole transfer. A body written again
///   for a redirect that keeps it (307, 308) is not counted twice. A streamed body's handler is
///   called in the transfer's task, the idle clock standing still meanwhile.
/// - **Cancellation**: ``APIKit/TransportTask/cancel()`` cancels the request in
///   AsyncHTTPClient (which closes its connection); the completion (or a stream's last event)
///   still comes, once, with `URLError(.cancelled)` — for a stream, after the chunks already
///   read ahead.
/// - **Threads**: a request whose body is in memory (or absent) runs on AsyncHTTPClient's event
///   loop, without a Swift task: `send` collects its body there and calls its progress handler
///   and completion on a Dispatch queue, ``stream(_:onEvent:)`` hands its events to `onEvent`
///   on a serial Dispatch queue of the transfer's own. A request with a streamed body runs in a
///   task of its own on Dispatch's threads (where
///   the OS has task executors: Linux, macOS 15, iOS 18), and calls back there. Neither runs on
///   Swift's cooperative pool, so that a process keeping that pool busy cannot hold a transfer
///   back while its timeout runs; callbacks come from Dispatch, as `URLSession` calls back on
///   its delegate queue. One exception: a streamed request body (a file, a multipart body with
///   files, a foreign body stream) is read by a task AsyncHTTPClient starts itself, on the
///   cooperative pool, and its upload progress is reported from there.
/// - **Errors** are mapped to `URLError` where one fits, with AsyncHTTPClient's or SwiftNIO's
///   error as `userInfo[NSUnderlyingErrorKey]`:
///
///   | AsyncHTTPClient / SwiftNIO | `URLError.Code` |
///   | --- | --- |
///   | task cancelled, `HTTPClientError.cancelled` | `.cancelled` |
///   | connection refused or unreachable (`NIOConnectionError`, `IOError` `ECONNREFUSED`) | `.cannotConnectToHost` |
///   | host name not resolved (`NIOConnectionError` with a DNS error, `SocketAddressError.UnknownHost`) | `.cannotFindHost` |
///   | `connectTimeout`, `readTimeout`, `writeTimeout`, `deadlineExceeded`, `tlsHandshakeTimeout`, the idle timeout | `.timedOut` |
///   | `remoteConnectionClosed`, connection reset, `ChannelError.eof`, a body cut off before its `Content-Length` (`HTTPParserError.invalidEOFState`) | `.networkConnectionLost` |
///   | `NIOSSLError`, `BoringSSLError`, `NIOSSLExtraError`: a refused certificate (unknown authority, another host name, expired) | `.serverCertificateUntrusted` |
///   | any other TLS failure | `.secureConnectionFailed` |
///   | `redirectLimitReached`, `redirectCycleDetected` | `.httpTooManyRedirects` |
///   | `invalidURL`, `emptyHost`, `emptyScheme`, a URL AsyncHTTPClient cannot take | `.badURL` |
///   | `unsupportedScheme` | `.unsupportedURL` |
///   | any other malformed response (`HTTPParserError`) | `.badServerResponse` |
///
///   Any other error (a `RequestBodyError` when a file to upload became shorter, for
///   example) is passed on unchanged.
///
/// **HTTP/2 and TLS.** HTTPS requests negotiate HTTP/2 with ALPN and fall back to HTTP/1.1
/// (`HTTPClient.Configuration.httpVersion`). To trust a private certificate authority, give
/// the client a TLS configuration:
///
/// ```swift
/// var tls = TLSConfiguration.makeClientConfiguration()
/// tls.trustRoots = .file("/etc/my-service/ca.pem")
/// var configuration = HTTPClient.Configuration()
/// configuration.tlsConfiguration = tls
/// let transport = AsyncHTTPClientTransport(configuration: configuration)
/// ```
///
/// A certificate the client refuses (an unknown authority, another host name, expired) fails
/// the request with `URLError(.serverCertificateUntrusted)`. AsyncHTTPClient retries a
/// connection it could not make — a refused certificate too — until its connect timeout
/// (`configuration.timeout.connect`, 10 s by default) and only then reports the error (a
/// request whose own timeout is shorter fails with `.timedOut` first); set
/// `configuration.connectionPool.retryConnectionEstablishment = false` to fail at once. (The
/// URLSession transport on Linux cannot be given a certificate authority of its own: libcurl
/// reads the system's, and corelibs reports a refused certificate as `URLError(.unknown)`.)
///
/// **Lifecycle.** ``init(client:)`` uses a client you own (by default `HTTPClient.shared`,
/// which is never shut down): the transport never shuts it down. ``init(configuration:eventLoopGroup:)``
/// creates a client that the transport owns: call ``shutdown()`` (or ``syncShutdown()``
/// outside async code) when you are done with it. A transfer in flight keeps its transport
/// alive; a transport that owns its client and is released without being shut down starts the
/// client's shutdown in the background, without reporting its outcome.
///
/// **Where it differs from `URLSession`** (the root package's integration suite runs over both
/// transports; the first two differences are pinned by tests):
///
/// - `HTTPClient.shared` retries a connection that cannot be made until the request's timeout
///   (60 s by default); `URLSession` fails at once. Set
///   `connectionPool.retryConnectionEstablishment = false` in a configuration of your own to
///   fail at once.
/// - An `HTTPClient` opens at most `connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit`
///   connections per host (8 by default), and `HTTPClient.shared` is one client for the whole
///   process (each `URLSessionTransport` has a `URLSession` of its own); further requests wait
///   for a connection, and the wait counts against their timeout. Raise it for many concurrent
///   requests to one host.
/// - Idle connections stay in the pool (600 s for `HTTPClient.shared`); a request sent on one
///   that the server is closing at that moment fails with `.networkConnectionLost`, and is not
///   sent again unless the session's ``APIKit/RetryPolicy`` says so. Keep
///   `connectionPool.idleTimeout` below your servers' keep-alive timeout.
///
/// ```swift
/// var configuration = HTTPClient.Configuration.singletonConfiguration
/// configuration.connectionPool.retryConnectionEstablishment = false
/// configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
/// configuration.connectionPool.idleTimeout = .seconds(1)
/// let transport = AsyncHTTPClientTransport(configuration: configuration)
/// ```
public final class AsyncHTTPClientTransport: Transport {
    /// The client that sends the requests.
    public let client: HTTPClient

    /// Whether the transport created ``client`` and must shut it down.
    private let ownsClient: Bool
    /// Whether ``shutdown()`` or ``syncShutdown()`` was called.
    private let isShutDown = NIOLockedValueBox(false)

    /// Creates a transport over a client you own; the transport never shuts it down.
    ///
    /// ```swift
    /// let session = Session(transport: AsyncHTTPClientTransport(client: .shared))
    /// ```
    ///
    /// - Parameter client: The client to send requests with; `HTTPClient.shared` by default
    ///   (which follows up to 20 redirects, decompresses responses and retries a connection
    ///   that cannot be made until the request's timeout).
    public init(client: HTTPClient = .shared) {
        self.client = client
        self.ownsClient = false
    }

    /// Creates a transport with a client of its own, made from `configuration`; shut it down
    /// with ``shutdown()`` or ``syncShutdown()`` when you are done.
    ///
    /// ```swift
    /// var configuration = HTTPClient.Configuration()
    /// configuration.timeout.connect = .seconds(5)
    /// let transport = AsyncHTTPClientTransport(configuration: configuration)
    /// defer { try? transport.syncShutdown() }
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The client's configuration: TLS, timeouts, redirects,
    ///     decompression, connection pool, proxy.
    ///   - eventLoopGroup: The event loops the client runs on; AsyncHTTPClient's shared
    ///     singleton group by default, which is never shut down.
    public init(
        configuration: HTTPClient.Configuration,
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup
    ) {
        self.client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        self.ownsClient = true
    }

    deinit {
        guard ownsClient, markShutDown() else { return }
        // An owned client must be shut down before it is released (AsyncHTTPClient traps in
        // debug builds otherwise): start the shutdown and keep the client alive until it ends.
        let client = client
        client.shutdown().whenComplete { _ in withExtendedLifetime(client) {} }
    }

    /// Shuts down the client the transport created, waiting until its connections are
    /// closed; does nothing for a transport made with ``init(client:)``, or when called again.
    ///
    /// Requests still in flight fail (with `URLError(.cancelled)` or the client's error);
    /// requests sent afterwards fail at once.
    ///
    /// - Throws: The client's error when it could not shut down cleanly
    ///   (`HTTPClientError.uncleanShutdown` when requests were still running, for example).
    public func shutdown() async throws {
        guard ownsClient, markShutDown() else { return }
        try await client.shutdown()
    }

    /// Shuts down the client the transport created, blocking the calling thread until its
    /// connections are closed; does nothing for a transport made with ``init(client:)``, or
    /// when called again. Never call it from an event loop or async code: use ``shutdown()``.
    ///
    /// - Throws: The client's error when it could not shut down cleanly.
    @available(*, noasync, message: "syncShutdown() blocks the thread; use shutdown()", renamed: "shutdown()")
    public func syncShutdown() throws {
        guard ownsClient, markShutDown() else { return }
        try client.syncShutdown()
    }

    /// Marks the transport shut down; `true` the first time only.
    private func markShutDown() -> Bool {
        isShutDown.withLockedValue { isShutDown in
            defer { isShutDown = true }
            return !isShutDown
        }
    }

    /// Sends `request` with AsyncHTTPClient, reporting its upload and download progress when
    /// `progress` is given.
    ///
    /// A body in memory (or none) is sent from the event loop, its progress handed to
    /// `progress` on a serial queue of the transfer's own, followed there by `completion`; a
    /// streamed body goes through a task on Dispatch's threads.
    ///
    /// - Parameters:
    ///   - request: The request as APIKit built it.
    ///   - progress: Receives the progress as slices of a body in memory are written (chunks of a
    ///     streamed body handed to the client) and chunks of the response arrive; in order,
    ///     never after `completion`.
    ///   - completion: Receives the response and its whole body, or the error (a `URLError`
    ///     where one fits), exactly once, on a Dispatch thread.
    /// - Returns: The transfer, to cancel it.
    public func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        // The common request (a body in memory or none) runs on the event loop, without a task.
        if let transfer = EventLoopTransfer.start(
            request, on: client, owner: self, progress: progress, completion: completion)
        {
            return transfer
        }
        return start(request, progress: progress, completion: completion)
    }

    /// Sends `request` with AsyncHTTPClient and returns its response, in the awaiting task.
    ///
    /// A request whose body is in memory (or absent) resumes the awaiting task straight from
    /// the event loop where its response ended: no thread runs between them. Any other goes
    /// through a task on Dispatch's threads, as ``send(_:progress:completion:)`` does.
    ///
    /// - Parameter request: The request as APIKit built it.
    /// - Returns: The response and its whole body.
    /// - Throws: The error that stopped the transfer, a `URLError` where one fits;
    ///   `URLError(.cancelled)` when the awaiting task is cancelled.
    public func send(_ request: URLRequest) async throws -> TransportResponse {
        // a task cancelled before the call sends nothing (a transfer started, then cancelled,
        // may have written its head on a warm connection)
        if Task.isCancelled { throw URLError(.cancelled, underlying: nil, url: request.url) }
        let cancellation = TransferCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let resume: @Sendable (Result<TransportResponse, any Error>) -> Void = { result in
                    continuation.resume(with: result)
                }
                cancellation.attach(
                    EventLoopTransfer.start(request, on: client, owner: self, queue: nil, completion: resume)
                        ?? start(request, progress: nil, completion: resume))
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Sends `request` with AsyncHTTPClient and reports the response as it arrives: the head,
    /// each chunk of the body as AsyncHTTPClient reads it, then the end.
    ///
    /// `onEvent` is called on a Dispatch thread, one event at a time. A request whose body is in
    /// memory (or absent) runs on the event loop and hands its events to `onEvent` on a serial
    /// queue of the transfer's own: the connection reads on while at most 1 MiB of chunks wait
    /// for `onEvent`, and stops reading from the socket beyond that until `onEvent` has taken
    /// half of them (a cancellation still delivers the chunks already queued before its
    /// `.failed`, and queues no more). A request with a streamed body runs in a task, which reads the next chunk once `onEvent` has
    /// returned for this one. Either way a consumer that takes its time slows the transfer down
    /// instead of piling chunks up in memory, and the idle clock stands still while events wait
    /// for `onEvent` or it runs. ``APIKit/TransportTask/cancel()`` closes the connection and ends the events with
    /// `.failed(URLError(.cancelled))`; the idle timeout (`URLRequest.timeoutInterval`) applies
    /// between chunks, as it does for ``send(_:progress:completion:)``.
    ///
    /// ```swift
    /// let session = Session(transport: AsyncHTTPClientTransport(client: .shared))
    /// for try await event in EventsRequest().stream(using: session).serverSentEvents {
    ///     print(event.data)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request as APIKit built it.
    ///   - onEvent: Receives the events, as ``APIKit/Transport/stream(_:onEvent:)`` describes:
    ///     `.response` at most once, `.data` in body order, then exactly one of `.finished` and
    ///     `.failed` (a `URLError` where one fits).
    /// - Returns: The transfer, to cancel it.
    public func stream(
        _ request: URLRequest,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> any TransportTask {
        // A body in memory or none: on the event loop, without a task.
        if let transfer = EventLoopTransfer.stream(request, on: client, owner: self, onEvent: onEvent) {
            return transfer
        }
        return start(AsyncHTTPClientTransfer(request: request, delivery: .stream(onEvent)))
    }

    private func start(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        start(AsyncHTTPClientTransfer(request: request, delivery: .whole(progress: progress, completion: completion)))
    }

    private func start(_ transfer: AsyncHTTPClientTransfer) -> any TransportTask {
        // The task holds the transport, so that a client it owns outlives the transfer. It runs
        // on Dispatch's threads where task executors exist (see TransferExecutor). (Starting it
        // on the caller's thread with `Task.immediate` saved no measurable time.)
        let task: Task<Void, Never>
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
            task = Task(executorPreference: TransferExecutor.shared) { [self] in
                await transfer.run(on: client)
            }
        } else {
            task = Task { [self] in
                await transfer.run(on: client)
            }
        }
        transfer.attach(task)
        return AsyncHTTPClientTransportTask(task: task)
    }
}

/// A transfer of an ``AsyncHTTPClientTransport``: cancelling it cancels its task.
/// Carries the awaiting task's cancellation to a transfer that may not have started yet.
final class TransferCancellation: Sendable {
    private let state = NIOLockedValueBox<(isCancelled: Bool, task: (any TransportTask)?)>((false, nil))

    /// Keeps `task` to cancel it; cancels it at once when the cancellation came first.
    func attach(_ task: any TransportTask) {
        let isCancelled = state.withLockedValue { state in
            if !state.isCancelled { state.task = task }
            return state.isCancelled
        }
        if isCancelled { task.cancel() }
    }

    /// Cancels the transfer, now or when it is attached.
    func cancel() {
        let task = state.withLockedValue { state in
            state.isCancelled = true
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
    }
}

struct AsyncHTTPClientTransportTask: TransportTask {
    let task: Task<Void, Never>

    func cancel() {
        task.cancel()
    }
}
