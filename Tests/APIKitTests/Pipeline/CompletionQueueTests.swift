import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("perform: where and when the completion runs")
struct CompletionQueueTests {
    enum Outcome: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case success, buildError, requestInterceptorError, transportError, statusError, cancelled
        var testDescription: String { rawValue }
    }

    /// What a completion saw about its surroundings.
    struct Observation: Sendable {
        var result: Result<String, RequestError>
        var onCallerQueue: Bool
        var onCompletionQueue: Bool
        var callerBlockHadReturned: Bool
    }

    /// Performs a request shaped for `outcome` from inside a block on `caller`, completing on `completionQueue`.
    private func observe(
        _ outcome: Outcome,
        caller: DispatchQueue,
        callerKey: DispatchSpecificKey<String>,
        completionQueue: DispatchQueue,
        completionKey: DispatchSpecificKey<String>
    ) async -> Observation? {
        let stub: StubbedResponse =
            switch outcome {
            case .transportError: .failure(.cannotConnectToHost)
            case .statusError: .status(404)
            case .cancelled: .status(200, delay: 30)  // long after corelibs has stopped the cancelled load
            default: .status(200, body: "ok")
            }
        let endpoint = StubEndpoint(stub)
        let request = ProbeRequest(
            base: endpoint.base,
            method: outcome == .buildError ? HTTPMethod(rawValue: "NOT A TOKEN") : .get,
            failing: outcome == .requestInterceptorError ? .requestInterceptor : nil
        )
        let probe = CompletionProbe<Observation>()
        // Set by the calling block as its last statement.
        let returned = Protected(false)
        caller.async {
            let handle = request.perform(session: StubURLProtocol.session, completionQueue: completionQueue) { result in
                probe.record(
                    Observation(
                        result: result,
                        onCallerQueue: DispatchQueue.getSpecific(key: callerKey) != nil,
                        onCompletionQueue: DispatchQueue.getSpecific(key: completionKey) == "completion",
                        callerBlockHadReturned: returned.value
                    )
                )
            }
            if outcome == .cancelled { handle.cancel() }
            returned.withLock { $0 = true }
        }
        return await probe.first()
    }

    @Test("never synchronously inside perform, always on the given completionQueue", arguments: Outcome.allCases)
    func asynchronousOnGivenQueue(outcome: Outcome) async throws {
        let callerKey = DispatchSpecificKey<String>()
        let caller = DispatchQueue(label: "apikit.tests.caller")
        caller.setSpecific(key: callerKey, value: "caller")
        let completionKey = DispatchSpecificKey<String>()
        let completionQueue = DispatchQueue(label: "apikit.tests.completion", attributes: .concurrent)
        completionQueue.setSpecific(key: completionKey, value: "completion")

        let observation = try #require(
            await observe(
                outcome,
                caller: caller,
                callerKey: callerKey,
                completionQueue: completionQueue,
                completionKey: completionKey
            )
        )

        #expect(!observation.onCallerQueue, "the completion ran synchronously on the calling queue")
        #expect(observation.onCompletionQueue)
        switch outcome {
        case .success: #expect((try? observation.result.get()) == "ok")
        case .buildError: #expect(observation.result.errorValue?.stage == .build)
        case .requestInterceptorError: #expect(observation.result.errorValue?.stage == .requestInterceptor)
        case .transportError: #expect(observation.result.errorValue?.stage == .transport)
        case .statusError: #expect(observation.result.errorValue?.statusCode == 404)
        case .cancelled: #expect(observation.result.errorValue?.stage == .cancelled)
        }
    }

    @Test(
        "with the calling serial queue as completionQueue, the completion runs only after the calling block returned",
        arguments: Outcome.allCases
    )
    func notReentrantOnCallingQueue(outcome: Outcome) async throws {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "apikit.tests.caller-and-completion")
        queue.setSpecific(key: key, value: "completion")

        let observation = try #require(
            await observe(outcome, caller: queue, callerKey: key, completionQueue: queue, completionKey: key)
        )

        #expect(observation.callerBlockHadReturned, "the completion ran inside perform(…) or cancel()")
        #expect(observation.onCompletionQueue)
    }
}
