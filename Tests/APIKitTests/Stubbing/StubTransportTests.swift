import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("StubTransport: canned responses through the real pipeline")
struct StubTransportTests {
    /// Sends `request` straight through the transport and waits for its result.
    func send(
        _ transport: StubTransport,
        _ request: URLRequest = URLRequest(url: stubBase)
    ) async -> (result: Result<TransportResponse, any Error>?, returned: Bool) {
        let probe = CompletionProbe<(Result<TransportResponse, any Error>, Bool)>()
        _ = InsideCall.run {
            transport.send(request, progress: nil) { probe.record(($0, !InsideCall.isInside)) }
        }
        let first = await probe.first()
        return (first?.0, first?.1 ?? false)
    }

    @Test("a success carries status, headers and body, and is never delivered inside send")
    func success() async throws {
        let transport = StubTransport { _ in .success(status: 201, headers: ["X-Id": "7"], body: Data([1, 2, 3])) }

        let (result, returned) = await send(transport)

        let response = try #require(result).get()
        let http = try #require(response.urlResponse as? HTTPURLResponse)
        #expect(http.statusCode == 201)
        #expect(http.value(forHTTPHeaderField: "X-Id") == "7")
        #expect(http.url == stubBase)
        #expect(response.data == Data([1, 2, 3]))
        #expect(returned, "the completion ran synchronously inside send")
    }

    @Test("a text body is sent as UTF-8")
    func textBody() async throws {
        let (result, _) = await send(StubTransport { _ in .success(body: "é") })
        #expect(try #require(result).get().data == Data("é".utf8))
    }

    @Test("a failure is delivered as the transport's error")
    func failure() async throws {
        let (result, returned) = await send(StubTransport { _ in .failure(URLError(.cannotConnectToHost)) })
        #expect((try #require(result).errorValue as? URLError)?.code == .cannotConnectToHost)
        #expect(returned)
    }

    @Test("the closure receives each request as built and picks the answer")
    func routesByRequest() async throws {
        let transport = StubTransport { request in
            request.url?.path == "/v1/probe"
                ? .success(body: request.value(forHTTPHeaderField: "Authorization") ?? "") : .success(status: 404)
        }
        var request = ProbeRequest(base: stubBase)
        request.authorization = "Bearer t"

        #expect(try await request.response(using: Session(transport: transport)) == "Bearer t")
        let other = ProbeRequest(base: URL(string: "https://api.example.test/other")!)
        let result = await other.result(session: Session(transport: transport))
        #expect(result.errorValue?.statusCode == 404)
    }

    @Test("cancelling a delayed answer delivers URLError(.cancelled) once, and never the answer")
    func cancelDelayed() async throws {
        let asked = CompletionProbe<Bool>()
        let transport = StubTransport { _ in
            asked.record(true)
            return .success(body: "late", delay: 30)
        }
        let probe = CompletionProbe<Result<TransportResponse, any Error>>()
        let task = transport.send(URLRequest(url: stubBase), progress: nil, completion: probe.handler)
        _ = await asked.first()

        task.cancel()
        task.cancel()

        let result = try #require(await probe.first())
        #expect((result.errorValue as? URLError)?.code == .cancelled)
        // let go of once the transfer is over: neither the second cancellation nor the answer
        // still due in 30 s can call it then
        #expect(await probe.released(), "the completion is still held")
        #expect(probe.count == 1)
    }

    @Test("through a session: status errors, parsing and delivery are the real pipeline's")
    func realPipeline() async throws {
        let session = Session(transport: StubTransport { _ in .success(status: 200, body: #"{"a":"b"}"#) })
        #expect(try await JSONObjectRequest(base: stubBase).response(using: session) == ["a": "b"])

        let broken = Session(transport: StubTransport { _ in .success(status: 200, body: "not json") })
        let result = await JSONObjectRequest(base: stubBase).result(session: broken)
        #expect(result.errorValue?.stage == .parsing)
    }
}
