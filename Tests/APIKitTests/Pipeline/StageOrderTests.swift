import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("perform: stage order")
struct StageOrderTests {
    @Test("stages run build → intercept(urlRequest:) → send → intercept(urlResponse:) → parse → response(from:)")
    func stagesRunInOrder() async throws {
        let log = EventLog()
        let endpoint = StubEndpoint(.status(200, body: "hello", onRequest: { _ in log.append("send") }))
        let request = ProbeRequest(base: endpoint.base, log: log)

        let (result, _) = await request.performProbed()

        #expect(try #require(result).get() == "hello")
        #expect(
            log.names == [
                "build", "intercept(urlRequest:)", "send", "intercept(urlResponse:)", "parse", "response(from:)",
            ]
        )
    }

    @Test("the stub receives the request as intercept(urlRequest:) returned it, exactly once")
    func stubSeesInterceptedRequest() async throws {
        let endpoint = StubEndpoint(.status(200))
        var request = ProbeRequest(base: endpoint.base)
        request.token = "t"
        request.authorization = "Bearer abc"

        let (result, _) = await request.performProbed()

        _ = try #require(result).get()
        let received = endpoint.receivedRequests
        try #require(received.count == 1)
        #expect(received[0].headerValue("X-Intercepted") == "yes")
        #expect(received[0].headerValue("Authorization") == "Bearer abc")
        #expect(received[0].url?.absoluteString == "https://\(endpoint.host)/api/probe?token=t")
        #expect(received[0].httpMethod == "GET")
    }

    @Test("the response hooks and the parser run on the completion queue, just before the completion")
    func responseStagesRunOnCompletionQueue() async throws {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "apikit.tests.stage-queue")
        queue.setSpecific(key: key, value: "completion")
        let log = EventLog(queueKey: key)
        let endpoint = StubEndpoint(.status(200, body: "x"))
        let request = ProbeRequest(base: endpoint.base, log: log)

        let probe = CompletionProbe<Result<String, RequestError>>()
        request.perform(session: StubURLProtocol.session, completionQueue: queue) { result in
            log.append("completion")
            probe.record(result)
        }
        _ = try #require(await probe.first()).get()

        let responseSide = log.all.filter {
            ["intercept(urlResponse:)", "parse", "response(from:)", "completion"].contains($0.name)
        }
        #expect(responseSide.map(\.name) == ["intercept(urlResponse:)", "parse", "response(from:)", "completion"])
        #expect(responseSide.allSatisfy { $0.queueTag == "completion" })
    }
}
