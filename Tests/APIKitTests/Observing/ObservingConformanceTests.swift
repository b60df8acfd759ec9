import Foundation
import Testing

@testable import APIKit

@Suite("Observing types: Sendable conformances, and transports without progress")
struct ObservingConformanceTests {
    func requireSendable<T: Sendable>(_: T.Type) {}

    @Test("the public logging and progress types are Sendable")
    func sendable() {
        requireSendable(RequestLogger.self)
        requireSendable(LogPrivacy.self)
        requireSendable(RequestLogEvent.self)
        requireSendable(LoggedRequest.self)
        requireSendable(LoggedResponse.self)
        requireSendable(TransferProgress.self)
        requireSendable(ProgressHandler.self)
        requireSendable(URLSessionTransport.self)
    }

    @Test("a transport that only implements send(_:completion:) still answers a call with progress, reporting none")
    func transportWithoutProgress() async throws {
        let transport = RecordingTransport(StubTransport(.success(body: "plain")))
        let recorder = ProgressRecorder()

        let value = try await SecretRequest().response(
            using: Session(transport: transport), progress: recorder.handler)

        #expect(value == "plain")
        #expect(transport.sent.withLock { $0.count } == 1)
        #expect(recorder.all.isEmpty)
    }
}
