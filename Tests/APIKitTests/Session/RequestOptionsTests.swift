import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("RequestOptions: call > request type > session, member by member")
struct RequestOptionsTests {
    func sent(
        session options: RequestOptions = RequestOptions(),
        request requestOptions: RequestOptions = RequestOptions(),
        call: RequestOptions? = nil
    ) async throws -> (sent: URLRequest, seenByIntercept: URLRequest) {
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let session = Session(transport: transport, options: options)
        let request = OptionsRequest(base: stubBase, options: requestOptions)
        _ = try await request.response(using: session, options: call)
        return (try #require(transport.sentRequests.first), try #require(request.seen.withLock { $0.first }))
    }

    @Test("nothing set: the URLRequest keeps its defaults")
    func nothingSet() async throws {
        let plain = URLRequest(url: stubBase)
        let (sent, _) = try await sent()
        #expect(sent.timeoutInterval == plain.timeoutInterval)
        #expect(sent.cachePolicy == plain.cachePolicy)  // no option touches it
    }

    @Test("the session's options apply to every request")
    func sessionOptions() async throws {
        let (sent, _) = try await sent(session: RequestOptions(timeout: 30, resourceTimeout: 60))
        #expect(sent.timeoutInterval == 30)
    }

    @Test("the request type's options win over the session's, member by member")
    func requestOverridesSession() async throws {
        let session = RequestOptions(timeout: 30, resourceTimeout: 60)
        let request = RequestOptions(timeout: 10)
        let (sent, _) = try await sent(session: session, request: request)
        #expect(sent.timeoutInterval == 10)
        #expect(request.overriding(session) == RequestOptions(timeout: 10, resourceTimeout: 60))
    }

    @Test("the call's options win over the request type's and the session's, member by member")
    func callOverridesAll() async throws {
        let session = RequestOptions(timeout: 30, resourceTimeout: 90)
        let request = RequestOptions(timeout: 10, resourceTimeout: 60)
        let call = RequestOptions(timeout: 5)
        let (sent, _) = try await sent(session: session, request: request, call: call)
        #expect(sent.timeoutInterval == 5)
        #expect(call.overriding(request).overriding(session) == RequestOptions(timeout: 5, resourceTimeout: 60))
    }

    @Test(
        "a timeout past 31 years (none, in practice) reaches the transport as 1e9 s; the hook still sees it as set",
        arguments: [1e9 + 1, 1e12, 1e300, Double.greatestFiniteMagnitude] as [Double])
    func longestTimeout(seconds: Double) async throws {
        let (transported, seen) = try await sent(call: RequestOptions(timeout: seconds, resourceTimeout: seconds))
        #expect(transported.timeoutInterval == 1e9)
        #expect(seen.timeoutInterval == seconds)
        let (longest, _) = try await sent(call: RequestOptions(timeout: 1e9))
        #expect(longest.timeoutInterval == 1e9)
    }

    @Test("intercept(urlRequest:) already sees the options")
    func interceptSeesOptions() async throws {
        let (_, seen) = try await sent(call: RequestOptions(timeout: 7))
        #expect(seen.timeoutInterval == 7)
    }

    @Test("perform(session: URLSession) applies the request type's options too")
    func legacyPerformAppliesRequestOptions() async throws {
        let endpoint = StubEndpoint(.status(200))
        let request = OptionsRequest(base: endpoint.base, options: RequestOptions(timeout: 12))
        let probe = CompletionProbe<Result<String, RequestError>>()
        request.perform(session: StubURLProtocol.session) { probe.record($0) }
        _ = try #require(await probe.first()).get()
        #expect(request.seen.withLock { $0.first?.timeoutInterval } == 12)
    }

    @Test(
        "a timeout that is not positive and finite → .buildFailed(.invalidTimeout); nothing is sent",
        arguments: [0, -1, Double.nan, Double.infinity]
    )
    func invalidTimeout(timeout: TimeInterval) async throws {
        let transport = RecordingTransport(StubTransport { _ in .success() })
        let session = Session(transport: transport)
        let request = OptionsRequest(base: stubBase, options: RequestOptions())

        let result = await request.result(session: session, options: RequestOptions(timeout: timeout))

        guard case .buildFailed(.invalidTimeout(let reported), _) = try #require(result.errorValue) else {
            Issue.record("expected .buildFailed(.invalidTimeout), got \(String(describing: result.errorValue))")
            return
        }
        #expect(reported.isNaN ? timeout.isNaN : reported == timeout)
        #expect(transport.sentRequests.isEmpty)
    }

    @Test("overriding(_:) takes each nil member from the wider options")
    func overriding() {
        let general = RequestOptions(timeout: 30, resourceTimeout: 120)
        #expect(RequestOptions().overriding(general) == general)
        #expect(RequestOptions(timeout: 1).overriding(general) == RequestOptions(timeout: 1, resourceTimeout: 120))
        #expect(
            RequestOptions(resourceTimeout: 5).overriding(general) == RequestOptions(timeout: 30, resourceTimeout: 5))
        #expect(RequestOptions().overriding(RequestOptions()) == RequestOptions())
    }

    @Test("a request without options of its own has none")
    func defaultRequestOptions() {
        #expect(ProbeRequest(base: stubBase).options == RequestOptions())
    }
}
