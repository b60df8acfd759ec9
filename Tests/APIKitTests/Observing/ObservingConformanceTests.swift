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
        requireSendable(TransferProgress.self)
        requireSendable(URLSessionTransport.self)
    }

    /// A transport that cannot observe its transfers: it ignores the `progress` it is given.
    struct IgnoringProgress: Transport {
        let base: any Transport

        func send(
            _ request: URLRequest,
            progress: (@Sendable (TransferProgress) -> Void)?,
            completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
        ) -> any TransportTask {
            base.send(request, progress: nil, completion: completion)
        }
    }

    @Test("a transport that ignores the progress it is given still answers a call with progress, reporting none")
    func transportWithoutProgress() async throws {
        let transport = RecordingTransport(IgnoringProgress(base: StubTransport { _ in .success(body: "plain") }))
        let recorder = ProgressRecorder()

        let value = try await SecretRequest().response(
            using: Session(transport: transport), progress: recorder.handler)

        #expect(value == "plain")
        #expect(transport.sent.withLock { $0.count } == 1)
        #expect(recorder.all.isEmpty)
    }

    @Test("a transport that wraps another passes the progress on: the stub's two steps arrive through it")
    func wrapperPassesProgressOn() async throws {
        let transport = RecordingTransport(StubTransport { _ in .success(body: "plain") })
        let recorder = ProgressRecorder()

        let value = try await SecretRequest().response(
            using: Session(transport: transport), progress: recorder.handler)

        #expect(value == "plain")
        #expect(recorder.all.map(\.bytesReceived) == [0, 5])
        #expect(recorder.all.last?.expectedBytesToReceive == 5)
    }
}
