import APIKit
import APIKitAsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOSSL
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The TLS server `scripts/test.sh` starts (scripts/servers/nginx.sh): nginx with HTTP/2
/// over TLS in front of httpbin, with a certificate from a test CA made for the run.
enum TLSServer {
    private static let environment = ProcessInfo.processInfo.environment

    /// `https://127.0.0.1:PORT`: the certificate names 127.0.0.1, signed by ``caPath``.
    static let url = environment["APIKIT_TLS_URL"].flatMap(URL.init(string:))
    /// The same CA's certificate, for the host name `wrong.invalid`.
    static let wrongNameURL = environment["APIKIT_TLS_WRONG_NAME_URL"].flatMap(URL.init(string:))
    /// The test CA's certificate (PEM).
    static let caPath = environment["APIKIT_TLS_CA"].flatMap { $0.isEmpty ? nil : $0 }

    static var isSet: Bool { url != nil && wrongNameURL != nil && caPath != nil }
    static let isRequired = environment["APIKIT_REQUIRE_HTTPBIN"] == "1"

    /// A transport whose client trusts the test CA and only it, or the system's roots (which do
    /// not hold the test CA); connections given up after `connectTimeout`.
    ///
    /// AsyncHTTPClient retries a connection that could not be made — a refused certificate
    /// too — until the connect timeout, unless `retryConnectionEstablishment` is off.
    static func transport(
        trustingTestCA: Bool, retryingConnections: Bool = true, connectTimeout: Int64 = 2
    ) -> AsyncHTTPClientTransport {
        var configuration = HTTPClient.Configuration()
        if trustingTestCA {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(caPath ?? "/nonexistent")
            configuration.tlsConfiguration = tls
        }
        configuration.timeout.connect = .seconds(connectTimeout)
        configuration.connectionPool.retryConnectionEstablishment = retryingConnections
        return AsyncHTTPClientTransport(configuration: configuration)
    }
}

/// httpbin's echo of a request through the TLS server, and the protocol nginx received it with.
struct TLSEcho: Sendable {
    struct Body: Decodable, Sendable {
        var args: [String: String]?
        var json: [String: String]?
        var headers: [String: String]
    }

    var body: Body
    /// nginx's `$server_protocol`: `HTTP/2.0` when the client spoke HTTP/2.
    var serverProtocol: String?
}

/// `POST /anything` with a query item, a header and a JSON body, through the TLS server.
struct TLSEchoRequest: Request, RequestConfiguration {
    @Query("q") var query = "a b&c"
    @Header("X-Trace") var trace: String? = "tls"
    @JSONBody var body = ["greeting": "hello over h2"]

    var base: URL
    var path: String { "anything" }
    var method: HTTPMethod { .post }
    var parser: JSONParser<TLSEcho.Body> { JSONParser() }
    var options: RequestOptions { RequestOptions(timeout: 10) }

    func response(from object: TLSEcho.Body, urlResponse: URLResponse) throws -> TLSEcho {
        TLSEcho(
            body: object,
            serverProtocol: (urlResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Server-Protocol"))
    }
}

@Suite("HTTP/2 and TLS: nginx with a certificate from a test CA")
struct TLSTests {
    @Test("the TLS server's URLs are set when APIKIT_REQUIRE_HTTPBIN=1")
    func serverIsConfigured() {
        guard TLSServer.isRequired else { return }
        #expect(
            TLSServer.isSet,
            "APIKIT_REQUIRE_HTTPBIN=1 but APIKIT_TLS_URL, APIKIT_TLS_WRONG_NAME_URL or APIKIT_TLS_CA is missing")
    }

    @Test(
        "a client that trusts the test CA talks HTTP/2 over TLS: query, header and JSON body arrive",
        .enabled(if: TLSServer.isSet))
    func http2OverTLS() async throws {
        let transport = TLSServer.transport(trustingTestCA: true)
        let session = Session(transport: transport)
        let echo = try await TLSEchoRequest(base: try #require(TLSServer.url)).response(using: session)
        #expect(echo.serverProtocol == "HTTP/2.0")
        #expect(echo.body.args?["q"] == "a b&c")
        #expect(echo.body.headers["X-Trace"] == "tls")
        #expect(echo.body.json == ["greeting": "hello over h2"])
        try await transport.shutdown()
    }

    @Test(
        "20 requests at once over HTTP/2 all succeed, each with its own answer", .enabled(if: TLSServer.isSet))
    func concurrentRequests() async throws {
        let transport = TLSServer.transport(trustingTestCA: true)
        let session = Session(transport: transport)
        let base = try #require(TLSServer.url)
        let protocols = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<20 {
                group.addTask {
                    var request = TLSEchoRequest(base: base)
                    request.query = "request \(index)"
                    let echo = try await request.response(using: session)
                    #expect(echo.body.args?["q"] == "request \(index)")
                    return echo.serverProtocol
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(protocols.count == 20)
        #expect(protocols.allSatisfy { $0 == "HTTP/2.0" })
        try await transport.shutdown()
    }

    @Test(
        "a certificate from a CA the client does not trust fails with serverCertificateUntrusted, not a timeout",
        .enabled(if: TLSServer.isSet))
    func untrustedCertificate() async throws {
        let transport = TLSServer.transport(trustingTestCA: false, retryingConnections: false)
        let error = await failure(of: TLSEchoRequest(base: try #require(TLSServer.url)), through: transport)
        #expect(
            (error?.underlyingError as? URLError)?.code == .serverCertificateUntrusted, "\(String(describing: error))")
        try await transport.shutdown()
    }

    @Test(
        "a trusted CA's certificate for another host name fails with serverCertificateUntrusted, not a timeout",
        .enabled(if: TLSServer.isSet))
    func wrongHostName() async throws {
        let transport = TLSServer.transport(trustingTestCA: true, retryingConnections: false)
        let error = await failure(of: TLSEchoRequest(base: try #require(TLSServer.wrongNameURL)), through: transport)
        #expect(
            (error?.underlyingError as? URLError)?.code == .serverCertificateUntrusted, "\(String(describing: error))")
        try await transport.shutdown()
    }

    @Test(
        "with AsyncHTTPClient's default connection retries, a refused certificate is reported when the connect timeout ends",
        .enabled(if: TLSServer.isSet))
    func refusedCertificateAfterRetries() async throws {
        let transport = TLSServer.transport(trustingTestCA: false, connectTimeout: 1)
        let error = await failure(of: TLSEchoRequest(base: try #require(TLSServer.url)), through: transport)
        #expect(
            (error?.underlyingError as? URLError)?.code == .serverCertificateUntrusted, "\(String(describing: error))")
        // Not before the connect timeout: the refused connection was retried until then.
        #expect(error.map { $0.elapsed >= .milliseconds(900) } == true, "\(String(describing: error?.elapsed))")
        try await transport.shutdown()
    }

    /// The error `request` fails with through `transport`, and how long that took.
    private func failure(of request: TLSEchoRequest, through transport: any Transport) async -> TimedFailure? {
        let started = ContinuousClock.now
        do {
            _ = try await request.response(using: Session(transport: transport))
            Issue.record("\(request.base) answered; a refused certificate was expected")
            return nil
        } catch {
            #expect(error.stage == .transport, "\(error)")
            return TimedFailure(error: error, elapsed: ContinuousClock.now - started)
        }
    }

    @Test(
        "URLSessionTransport on Linux cannot be given the test CA: corelibs reports libcurl's certificate error as URLError(.unknown)",
        .enabled(if: TLSServer.isSet))
    func urlSessionTransportDiffers() async throws {
        let error = await failure(of: TLSEchoRequest(base: try #require(TLSServer.url)), through: URLSessionTransport())
        let urlError = error?.underlyingError as? URLError
        #expect(urlError?.code == .unknown, "\(String(describing: error))")
        #expect(urlError?.localizedDescription.contains("certificate") == true, "\(String(describing: error))")
    }
}

/// A request's error and the time until it came.
struct TimedFailure {
    var error: RequestError
    var elapsed: Duration

    var underlyingError: (any Error)? { error.underlyingError }
}
