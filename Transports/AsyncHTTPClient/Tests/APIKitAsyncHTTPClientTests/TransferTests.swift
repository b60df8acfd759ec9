import APIKit
import APIKitTestSupport
import Foundation
import Testing

@testable import APIKitAsyncHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The single end of a transfer, decided from its exchange and its idle clock, without a
// network: the races these pin need a busy Swift pool to show over a real connection.
@Suite("How an AsyncHTTPClientTransfer ends")
struct TransferTests {
    private static let url = URL(string: "http://127.0.0.1:9/transfer")!

    private static func response() -> TransportResponse {
        let head = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
        return TransportResponse(data: Data("body".utf8), urlResponse: head)
    }

    /// Runs a transfer whose exchange is `exchange`, attached to its task as the transport
    /// does, and returns how it ended.
    private static func end(
        of exchange: @escaping @Sendable (AsyncHTTPClientTransfer) async throws -> TransportResponse
    ) async throws -> Result<TransportResponse, any Error> {
        let ended = CompletionProbe<Result<TransportResponse, any Error>>()
        let result: Result<TransportResponse, any Error>
        do {
            let transfer = AsyncHTTPClientTransfer(
                request: URLRequest(url: url), delivery: .whole(progress: nil, completion: ended.handler))
            transfer.attach(Task { await transfer.run { try await exchange(transfer) } })
            result = try #require(await ended.first(), "the transfer never ended")
            // Exactly once, even when the clock is looked at after the end.
            transfer.timeOut()
        }
        // the transfer, its task and so the completion are gone: nothing can call it again
        #expect(await ended.released(), "the completion is still held")
        #expect(ended.count == 1)
        return result
    }

    @Test("a timeout declared while the response was arriving wins over the exchange's late success")
    func timeoutWinsOverLateSuccess() async throws {
        // As when the event loop read the whole body while the pool that carries the
        // cancellation to AsyncHTTPClient was busy: the body is complete, nothing cancels it.
        let result = try await Self.end { transfer in
            transfer.timeOut()
            return Self.response()
        }
        #expect((result.failure as? URLError)?.code == .timedOut)
        #expect((result.failure as? URLError)?.failingURL == Self.url)
    }

    @Test("a timeout declared while the exchange failed is a timeout, not that failure")
    func timeoutWinsOverFailure() async throws {
        let result = try await Self.end { transfer in
            transfer.timeOut()
            throw CancellationError()
        }
        #expect((result.failure as? URLError)?.code == .timedOut)
    }

    @Test("without a timeout the exchange's response is delivered, and a late look cannot change it")
    func successWithoutTimeout() async throws {
        let result = try await Self.end { _ in Self.response() }
        #expect(try result.get().data == Data("body".utf8))
    }
}
