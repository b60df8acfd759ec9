import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

@Suite("ResponseStream: cancellation racing the end of the body")
struct ResponseStreamRaceTests {
    @Test("a consumer cancelled at any moment ends once: all chunks, or cancelled — never a short success")
    func cancelRacingTheLastChunk() async throws {
        let session = Session(transport: StubTransport { _ in .stream(chunks: ["a", "b", "c"], interval: 0.001) })
        var outcomes: [String: Int] = [:]
        for round in 0..<300 {
            let consumer = Task { () async throws -> Int in
                var count = 0
                for try await _ in StreamedRequest().stream(using: session) { count += 1 }
                return count
            }
            try await Task.sleep(for: .microseconds(round % 6 * 1000))
            consumer.cancel()
            switch await consumer.result {
            case .success(let count):
                #expect(count == 3, "round \(round): a stream that returned normally lost chunks")
                outcomes["complete", default: 0] += 1
            case .failure(let error):
                guard case .cancelled? = error as? RequestError else {
                    Issue.record("round \(round): \(error)")
                    continue
                }
                outcomes["cancelled", default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == 300)
    }

    @Test("dropping iterators at any moment cancels each transfer once, and nothing hangs")
    func dropRacingTheLastChunk() async throws {
        let cancels = Protected(0)
        let transport = ObservedTransport(base: StubTransport { _ in .stream(chunks: ["a", "b"], interval: 0.001) }) {
            cancels.withLock { $0 += 1 }
        }
        let session = Session(transport: transport)
        for round in 0..<300 {
            var iterator = StreamedRequest().stream(using: session).makeAsyncIterator()
            _ = try await iterator.next()
            if round % 2 == 0 { try await Task.sleep(for: .microseconds(round % 5 * 500)) }
        }
        // an iterator dropped after its transfer ended cancels nothing; never more than one per transfer
        #expect(cancels.value <= 300)
    }
}
