import Foundation
import Testing

@_spi(Testing) @testable import APIKit

@Suite("Session: settings given in any order, and variants of a session")
struct SessionConfigureTests {
    struct Ping: Request, RequestConfiguration {
        var base = stubBase
        var path = "ping"
        var method: HTTPMethod = .get
        var parser: StringParser { StringParser() }
    }

    struct ConfigureFailed: Error, Equatable {}

    /// The request `session` sends for ``Ping``, through a recording stub behind its transport.
    func sent(through session: Session) async throws -> URLRequest {
        let transport = RecordingTransport(StubTransport(.success()))
        var session = session
        session.transport = transport
        _ = try await Ping().response(using: session)
        return try #require(transport.sentRequests.first)
    }

    @Test("the closure's settings, in any order, are the session's; the rest keep their defaults")
    func closureSettings() async throws {
        let transport = StubTransport(.success())
        let session = Session(transport: transport) { session in
            session.logger = nil
            session.defaultQueryItems["api_key"] = "k-1"
            session.options = RequestOptions(timeout: 12)
            session.defaultHeaders["User-Agent"] = "MyApp/1.0"
            session.retryPolicy = RetryPolicy(maxAttempts: 4)
        }
        #expect(session.transport is StubTransport)
        #expect(session.defaultHeaders == ["User-Agent": "MyApp/1.0"])
        #expect(session.defaultQueryItems == ["api_key": "k-1"])
        #expect(session.retryPolicy.maxAttempts == 4)
        #expect(session.completionQueue == nil)
        #expect(session.interceptors.isEmpty)
        #expect(session.credentialStore == nil)
        let request = try await sent(through: session)
        #expect(request.url?.absoluteString == "https://api.example.test/v1/ping?api_key=k-1")
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "MyApp/1.0")
        #expect(request.timeoutInterval == 12)
    }

    @Test("with(_:) changes a copy; the original sends as before")
    func variant() async throws {
        let base = Session { $0.defaultHeaders["X-App"] = "1" }
        let admin = base.with { $0.defaultHeaders["X-Admin"] = "yes" }
        #expect(base.defaultHeaders == ["X-App": "1"])
        #expect(admin.defaultHeaders == ["X-App": "1", "X-Admin": "yes"])
        let sentByBase = try await sent(through: base)
        let sentByAdmin = try await sent(through: admin)
        #expect(sentByBase.value(forHTTPHeaderField: "X-Admin") == nil)
        #expect(sentByAdmin.value(forHTTPHeaderField: "X-Admin") == "yes")
        #expect(sentByAdmin.value(forHTTPHeaderField: "X-App") == "1")
    }

    @Test("an error thrown by the closure is the initializer's and with(_:)'s")
    func closureErrors() throws {
        #expect(throws: ConfigureFailed.self) {
            _ = try Session { _ in throw ConfigureFailed() }
        }
        #expect(throws: ConfigureFailed.self) {
            _ = try Session().with { _ in throw ConfigureFailed() }
        }
    }
}
