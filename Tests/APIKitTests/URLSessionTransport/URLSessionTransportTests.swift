import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("A caller's URLSession as the transport (the spec perform's road)")
struct URLSessionTransportTests {
    func send(_ request: URLRequest) async -> Result<TransportResponse, any Error>? {
        let probe = CompletionProbe<Result<TransportResponse, any Error>>()
        _ = ForeignURLSessionTransport(urlSession: StubURLProtocol.session).send(request, progress: nil) {
            probe.record($0)
        }
        return await probe.first()
    }

    @Test("a response arrives with its status and whole body")
    func success() async throws {
        let endpoint = StubEndpoint(.status(202, body: "accepted", headers: ["X-A": "1"]))
        let response = try #require(await send(URLRequest(url: endpoint.base))).get()
        #expect((response.urlResponse as? HTTPURLResponse)?.statusCode == 202)
        #expect(response.data == Data("accepted".utf8))
    }

    @Test("a transport error arrives as the error")
    func failure() async throws {
        let endpoint = StubEndpoint(.failure(.networkConnectionLost))
        let result = try #require(await send(URLRequest(url: endpoint.base)))
        #expect((result.errorValue as? URLError)?.code == .networkConnectionLost)
    }

    @Test("the returned task is the running data task; cancelling it reports URLError(.cancelled)")
    func cancel() async throws {
        let endpoint = StubEndpoint(.status(200, delay: 30))
        let probe = CompletionProbe<Result<TransportResponse, any Error>>()
        let task = ForeignURLSessionTransport(urlSession: StubURLProtocol.session).send(
            URLRequest(url: endpoint.base), progress: nil
        ) {
            probe.record($0)
        }
        #expect((task as? URLSessionDataTask)?.state == .running)

        task.cancel()

        let result = try #require(await probe.first())
        #expect((result.errorValue as? URLError)?.code == .cancelled)
    }
}
