import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

/// `Transport.send(_:)`'s default: the completion form awaited, exactly once, whatever comes
/// first — the transport's answer or the awaiting task's cancellation.
@Suite("Transport.send(_:) by default: send(_:progress:completion:) awaited")
struct TransportCallTests {
    /// A transport that answers only when the test says, and records its cancellations.
    final class HeldTransport: Transport, Sendable {
        struct Held: TransportTask {
            let cancelled: CompletionProbe<Bool>
            func cancel() { cancelled.record(true) }
        }

        let sent = CompletionProbe<URLRequest>()
        let cancelled = CompletionProbe<Bool>()
        let completions = Locked<[@Sendable (Result<TransportResponse, any Error>) -> Void]>([])

        func send(
            _ request: URLRequest,
            progress: (@Sendable (TransferProgress) -> Void)?,
            completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
        ) -> any TransportTask {
            completions.withLock { $0.append(completion) }
            sent.record(request)
            return Held(cancelled: cancelled)
        }

        /// Answers the first request, from another thread.
        func answer(_ result: Result<TransportResponse, any Error>) {
            let completion = completions.withLock { $0.first }
            DispatchQueue.global().async { completion?(result) }
        }
    }

    private static let url = URL(string: "https://api.example.test/v1/call")!

    private static func ok(_ body: String) -> TransportResponse {
        let http = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
        return TransportResponse(data: Data(body.utf8), urlResponse: http)
    }

    @Test("returns what the completion delivered, or throws its error")
    func outcome() async throws {
        let success = StubTransport { _ in .success(body: "hello") }
        #expect(try await success.send(URLRequest(url: Self.url)).data == Data("hello".utf8))

        let failure = StubTransport { _ in .failure(URLError(.networkConnectionLost)) }
        await #expect(throws: URLError(.networkConnectionLost)) {
            _ = try await failure.send(URLRequest(url: Self.url))
        }
    }

    @Test("cancelling the awaiting task throws .cancelled at once, cancels the transfer and ignores the late answer")
    func cancelledWhileWaiting() async throws {
        let transport = HeldTransport()
        let call = Task { try await transport.send(URLRequest(url: Self.url)) }
        #expect(await transport.sent.first() != nil, "the request never reached the transport")

        call.cancel()

        // no answer has come: the call ends on the cancellation alone
        let result = await call.result
        #expect((result.errorValue as? URLError)?.code == .cancelled, "\(result)")
        #expect(await transport.cancelled.first() == true, "the transfer was not cancelled")
        // the transport still completes, as its rules say: nothing resumes twice
        transport.answer(.success(Self.ok("late")))
        transport.answer(.failure(URLError(.cancelled)))
        #expect(transport.cancelled.count == 1)
    }

    @Test("a task cancelled before the call sends nothing")
    func cancelledBefore() async throws {
        let transport = HeldTransport()
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(URLRequest(url: Self.url))
        }
        let result = await call.result
        #expect((result.errorValue as? URLError)?.code == .cancelled, "\(result)")
        #expect(transport.sent.count == 0)
    }

    @Test("an answer before the cancellation wins: the response is returned once")
    func answeredFirst() async throws {
        let transport = HeldTransport()
        let call = Task { try await transport.send(URLRequest(url: Self.url)) }
        #expect(await transport.sent.first() != nil, "the request never reached the transport")
        transport.answer(.success(Self.ok("first")))
        let response = try await call.value
        call.cancel()
        #expect(response.data == Data("first".utf8))
        #expect(transport.cancelled.count == 0, "a finished transfer was cancelled")
    }
}
