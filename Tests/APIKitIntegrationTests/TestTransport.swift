@_spi(Testing) import APIKit
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if APIKIT_TEST_TRANSPORT_AHC
    import APIKitAsyncHTTPClient
    import AsyncHTTPClient
#endif

/// The transport the integration tests send through: the one switch that runs this suite over
/// either transport.
///
/// The root package compiles this folder as `APIKitIntegrationTests` and sends over
/// `URLSession`: ``URLSessionTransport``, or the suite's ephemeral `URLSession` where a test
/// does not need the transport's delegate. The AsyncHTTPClient package
/// (`Transports/AsyncHTTPClient`) compiles the same files (its `Tests/APIKitIntegrationTests`
/// is a symlink to this folder) with `APIKIT_TEST_TRANSPORT_AHC` defined, and there the
/// environment variable `APIKIT_TEST_TRANSPORT` chooses at run time: `asynchttpclient` (the
/// default) hands out `AsyncHTTPClientTransport`s, `urlsession` the same transports as the root
/// package. `scripts/test.sh` runs the suite over `URLSession` in the root package and over
/// AsyncHTTPClient in that package (under the thread sanitizer in the full pass). Any other
/// value stops the run, and so does `asynchttpclient` in the root
/// package, which cannot send over it: a suite never runs over a transport it was not asked for.
///
/// A test builds its sessions from here unless it is about `URLSession` itself
/// (`Request.perform(session:)`, delegate queues, the spool file, corelibs' quirks): those
/// carry ``Testing/Trait/urlSessionOnly(_:)`` and are skipped, with the reason, over
/// AsyncHTTPClient. A behaviour that differs between the transports is pinned where it is
/// tested, on ``kind``.
///
/// ```swift
/// let session = Session(transport: TestTransport.make())
/// ```
enum TestTransport {
    /// The engines this suite runs over.
    enum Kind: String, Sendable {
        case urlSession = "urlsession"
        case asyncHTTPClient = "asynchttpclient"
    }

    /// The engine of this run: `APIKIT_TEST_TRANSPORT`, or the build's default.
    static let kind: Kind = {
        #if APIKIT_TEST_TRANSPORT_AHC
            let (fallback, available) = (Kind.asyncHTTPClient, [Kind.asyncHTTPClient, .urlSession])
        #else
            let (fallback, available) = (Kind.urlSession, [Kind.urlSession])
        #endif
        guard let name = ProcessInfo.processInfo.environment["APIKIT_TEST_TRANSPORT"], !name.isEmpty else {
            return fallback
        }
        guard let kind = Kind(rawValue: name.lowercased()), available.contains(kind) else {
            fatalError(
                "APIKIT_TEST_TRANSPORT=\(name): this build sends over \(available.map(\.rawValue).joined(separator: " or "))"
            )
        }
        return kind
    }()

    /// The transport most tests share.
    ///
    /// Over `URLSession`, an ephemeral `URLSession` (no cookies or cache leak between tests),
    /// ``HTTPBin/session``. Over AsyncHTTPClient, ``asyncHTTPClient``.
    static var shared: any Transport {
        #if APIKIT_TEST_TRANSPORT_AHC
            if kind == .asyncHTTPClient { return asyncHTTPClient }
        #endif
        return HTTPBin.session.asTransport
    }

    /// A transport of the test's own.
    ///
    /// Over `URLSession`, a ``URLSessionTransport`` (that writes its spool files into
    /// `spoolDirectory` when given, where a test can count them). Over AsyncHTTPClient,
    /// ``shared`` (the client's transfers are independent); `spoolDirectory` is not used, as the
    /// transport streams bodies from disk and never spools.
    static func make(spoolDirectory: URL? = nil) -> any Transport {
        #if APIKIT_TEST_TRANSPORT_AHC
            if kind == .asyncHTTPClient { return asyncHTTPClient }
        #endif
        return spoolDirectory.map { URLSessionTransport(spoolDirectory: $0) } ?? URLSessionTransport()
    }

    /// Every way a test that covers "each transport" sends.
    ///
    /// Over `URLSession`, ``URLSessionTransport`` (what `Session()` sends through) and
    /// `URLSession.shared` (a `URLSession` passed as the transport, the spec's
    /// `perform(session:)` road). Over AsyncHTTPClient, ``asyncHTTPClient``.
    static func all(spoolDirectory: URL? = nil) -> [(name: String, transport: any Transport)] {
        #if APIKIT_TEST_TRANSPORT_AHC
            if kind == .asyncHTTPClient { return [("AsyncHTTPClientTransport", asyncHTTPClient)] }
        #endif
        return [
            ("URLSessionTransport", make(spoolDirectory: spoolDirectory)),
            ("URLSession.shared", URLSession.shared.asTransport),
        ]
    }

    #if APIKIT_TEST_TRANSPORT_AHC
        /// The transport the suite shares over AsyncHTTPClient: `AsyncHTTPClientTransport` over
        /// a client configured as `HTTPClient.shared` is, except for three pool settings that
        /// make it behave as `URLSession` does (the package README recommends them for that):
        ///
        /// - a refused connection fails at once (`retryConnectionEstablishment = false`);
        ///   `HTTPClient.shared` retries it until the request's timeout (pinned in
        ///   `BehaviourTests`);
        /// - 64 connections per host instead of 8: the suite sends dozens of requests at once to
        ///   each server, and a request waiting for a pooled connection spends its timeout
        ///   waiting;
        /// - idle connections closed after 1 s instead of 600 s, before the servers close them
        ///   (gunicorn after 2 s, the fault server 10 s after a connection that sent nothing): a
        ///   request sent on a connection the server is closing fails with
        ///   `.networkConnectionLost`, and AsyncHTTPClient does not send it again.
        ///
        /// Never shut down: it lives as long as the test process.
        static let asyncHTTPClient: any Transport = AsyncHTTPClientTransport(configuration: configuration)

        /// The configuration of ``asyncHTTPClient``'s client.
        static var configuration: HTTPClient.Configuration {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
            configuration.connectionPool.idleTimeout = .seconds(1)
            return configuration
        }
    #endif

    /// A transport for a test that looks for sockets left open after its transfers; call
    /// `close()` when done.
    ///
    /// Over `URLSession`, an ephemeral session of the test's own, invalidated by `close()` (a
    /// socket is checked while the session that made it is still alive). Over AsyncHTTPClient,
    /// ``shared``: its client lives as long as the process, so a socket its pool kept after a
    /// failed or cancelled transfer would be seen; `close()` does nothing.
    static func isolated() -> (transport: any Transport, close: @Sendable () -> Void) {
        switch kind {
        case .urlSession:
            let session = URLSession(configuration: .ephemeral)
            return (session.asTransport, { session.invalidateAndCancel() })
        case .asyncHTTPClient:
            return (shared, {})
        }
    }

    /// Whether the suite runs over `URLSession`.
    static var isURLSession: Bool { kind == .urlSession }

    /// A session over ``shared`` with a completion queue, as `Request.perform(session:completionQueue:)`
    /// builds one over a `URLSession`.
    static func session(completionQueue: DispatchQueue? = nil) -> Session {
        Session(transport: shared, completionQueue: completionQueue)
    }
}

extension Trait where Self == ConditionTrait {
    /// Marks a test about `URLSession` itself (its API, its delegate queue, the spool file,
    /// corelibs' behaviour): it runs in the root package and is skipped over AsyncHTTPClient.
    ///
    /// - Parameter reason: What the test is about, shown when it is skipped.
    static func urlSessionOnly(_ reason: Comment) -> Self {
        .enabled(if: TestTransport.isURLSession, reason)
    }
}
