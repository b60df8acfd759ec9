import APIKitTestSupport
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

/// The context a link receives tells how the call reads its body, so that a link can treat the
/// kinds of call apart (a cache answering only calls that read the body whole).
@Suite("RequestContext.bodyDelivery: how the call reads its body, as each link sees it")
struct BodyDeliveryTests {
    typealias Road = CallEventRoadTests.Road

    /// Records the delivery of every context it receives.
    struct DeliveryProbe: Interceptor {
        let seen = Locked<[RequestContext.BodyDelivery]>([])

        func intercept(
            _ urlRequest: URLRequest, context: RequestContext,
            next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
        ) async throws -> CallResponse {
            seen.withLock { $0.append(context.bodyDelivery) }
            return try await next(urlRequest)
        }
    }

    @Test(
        "response and perform read the body whole, a stream streams it, a download writes a file",
        arguments: Road.allCases)
    func eachRoad(road: Road) async throws {
        let probe = DeliveryProbe()
        let session = Session(transport: StubTransport { _ in .success(body: "ok") }, interceptors: [probe])
        #expect(try await road.run(session))
        let expected: RequestContext.BodyDelivery =
            switch road {
            case .response, .perform: .whole
            case .stream: .stream
            case .download: .file
            }
        #expect(probe.seen.withLock { $0 } == [expected])
    }

    @Test("a call's error carries its delivery; a build error, raised before the chain, says whole")
    func errors() async throws {
        let session = Session(transport: StubTransport { _ in .success(status: 500, body: "no") })
        do {
            for try await _ in TextRequest().stream(using: session) {}
            Issue.record("a 500 was accepted")
        } catch {
            #expect(error.context.bodyDelivery == .stream)
        }
        let context = RequestContext(requestType: "R", method: .get, url: nil, declaredLocation: "")
        #expect(context.bodyDelivery == .whole)
        #expect(context.with(bodyDelivery: .file) == context, "not part of equality")
    }
}
