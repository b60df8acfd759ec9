import APIKit
import Testing

/// The misbehaving server `scripts/faultserver.py`, started by `scripts/test.sh`.
enum FaultServer {
    static let url: URL? = ProcessInfo.processInfo.environment["APIKIT_FAULT_URL"].flatMap { value in
        guard let url = URL(string: value), url.host != nil else { return nil }
        return url
    }

    static let skipReason: Comment =
        "APIKIT_FAULT_URL is not set: run `bash scripts/test.sh` to start the fault server"
}

/// One fault, by path, with a 2 s request timeout.
struct FaultRequest: Request, RequestConfiguration {
    var path: String
    var base = FaultServer.url ?? URL(string: "http://127.0.0.1:9")!
    var method: HTTPMethod = .get
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    var options: RequestOptions { RequestOptions(timeout: 2) }
}

/// `/never` on the fault server: it reads the request and holds the connection for 120 s
/// without answering, so "finished well before the answer" can have a generous bound.
struct NeverAnsweredRequest: Request, RequestConfiguration {
    var timeout: TimeInterval? = nil
    var base = FaultServer.url ?? URL(string: "http://127.0.0.1:9")!
    var path = "never"
    var method: HTTPMethod = .get
    var configuration: Self { self }
    var parser: RawDataParser { RawDataParser() }
    var options: RequestOptions { RequestOptions(timeout: timeout) }
}

@Suite(
    "Faulty servers: a clear RequestError, exactly once, in time",
    .enabled(if: FaultServer.url != nil, FaultServer.skipReason))
struct FaultInjectionTests {
    /// Performs a fault and checks what every fault must satisfy: one completion, within the
    /// timeout plus a margin for a loaded machine, and no second call afterwards.
    func outcome(_ path: String, bound: Duration = .seconds(12)) async throws -> Result<Data, RequestError> {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let inFlight = start(FaultRequest(path: path), session: session)
        let result = try await inFlight.result(timeout: 30)
        #expect(ContinuousClock.now - inFlight.started < bound, "\(path) took too long")
        await pause(0.3)
        #expect(inFlight.completionCount == 1, "\(path) completed \(inFlight.completionCount) times")
        return result
    }

    func expectTransportFailure(_ path: String, codes: Set<URLError.Code>) async throws {
        let result = try await outcome(path)
        guard case .failure(let error) = result else {
            Issue.record("\(path): expected a transport failure, got \(result)")
            return
        }
        #expect(error.stage == .transport, "\(path): \(error)")
        let code = (error.underlyingError as? URLError)?.code
        #expect(
            code.map(codes.contains) == true,
            "\(path): underlying code \(String(describing: code?.rawValue)): \(String(describing: error.underlyingError))"
        )
    }

    @Test("the control path answers normally")
    func control() async throws {
        let result = try await outcome("ok")
        #expect((try? result.get()).map { String(decoding: $0, as: UTF8.self) } == #"{"ok":true}"#)
    }

    @Test("connection reset before the status line")
    func resetBeforeStatus() async throws {
        try await expectTransportFailure(
            "reset-before-status", codes: [.networkConnectionLost, .badServerResponse, .cannotParseResponse])
    }

    @Test("connection reset in the middle of the headers")
    func resetMidHeaders() async throws {
        try await expectTransportFailure(
            "reset-mid-headers", codes: [.networkConnectionLost, .badServerResponse, .cannotParseResponse])
    }

    @Test("connection reset in the middle of the body")
    func resetMidBody() async throws {
        try await expectTransportFailure("reset-mid-body", codes: [.networkConnectionLost, .badServerResponse])
    }

    @Test("Content-Length larger than the body, then a clean close")
    func shortBody() async throws {
        // corelibs reports curl's "transfer closed with 990 bytes remaining to read" as .unknown.
        try await expectTransportFailure("short-body", codes: [.networkConnectionLost, .badServerResponse, .unknown])
    }

    @Test("a server that never answers times out")
    func neverAnswers() async throws {
        try await expectTransportFailure("never", codes: [.timedOut])
    }

    @Test("a body that stops arriving times out")
    func stalledBody() async throws {
        try await expectTransportFailure("drip-stall", codes: [.timedOut])
    }

    @Test("a malformed status line")
    func malformedStatus() async throws {
        // corelibs reports curl's "Unsupported HTTP version in response" as .unsupportedURL.
        try await expectTransportFailure(
            "malformed-status",
            codes: [.badServerResponse, .cannotParseResponse, .networkConnectionLost, .unsupportedURL]
        )
    }

    @Test("10 MB of headers")
    func hugeHeaders() async throws {
        // corelibs stops at 300 KB of headers ("Too large response headers") and reports .unknown.
        try await expectTransportFailure(
            "huge-headers",
            codes: [
                .badServerResponse, .cannotParseResponse, .networkConnectionLost, .dataLengthExceedsMaximum, .unknown,
            ]
        )
    }

    @Test("a redirect loop ends")
    func redirectLoop() async throws {
        try await expectTransportFailure(
            "redirect-loop", codes: [.httpTooManyRedirects, .redirectToNonExistentLocation])
    }

    @Test("a header with control bytes: rejected, or delivered without them — never a crash")
    func invalidHeader() async throws {
        let result = try await outcome("invalid-header")
        if case .failure(let error) = result {
            #expect(error.stage == .transport, "\(error)")
        }
    }

    @Test("a gzip body that is not gzip: a transport error, or the raw bytes")
    func corruptGzip() async throws {
        let result = try await outcome("corrupt-gzip")
        if case .failure(let error) = result {
            #expect(error.stage == .transport, "\(error)")
        }
    }
}
