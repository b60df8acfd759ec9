import Foundation
import Testing

@testable import APIKit

/// A request whose configuration has a property named `options` of another type: it must
/// still compile, keep its own property, and get the default ``Request/options``.
struct OwnOptionsPropertyRequest: Request, RequestConfiguration {
    @Query("options") var options: String? = "verbose"

    var base = stubBase
    var path = "own-options"
    var method: HTTPMethod = .get
    var configuration: Self { self }
    var parser: StringParser { StringParser() }
}

@Suite("Session types: Sendable conformances and name clashes")
struct SessionConformanceTests {
    func requireSendable<T: Sendable>(_: T.Type) {}

    @Test("the public session types are Sendable")
    func sendable() {
        requireSendable(Session.self)
        requireSendable(RequestOptions.self)
        requireSendable(StubTransport.self)
        requireSendable(StubResponse.self)
        requireSendable(TransportResponse.self)
        requireSendable(RequestHandle.self)
        requireSendable((any Transport).self)
        requireSendable((any TransportTask).self)
        requireSendable((any Interceptor).self)
    }

    @Test("a configuration property named `options` is a query item, not the request's options")
    func ownOptionsProperty() async throws {
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let request = OwnOptionsPropertyRequest()
        _ = try await request.response(using: Session(transport: transport))
        #expect(request.options == "verbose")
        #expect(transport.sentRequests.first?.url?.query == "options=verbose")
    }
}
