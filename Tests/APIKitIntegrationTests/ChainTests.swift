import APIKit
import APIKitTestSupport
import APIKitTestTime
import Foundation
import Testing

/// The chain carries what the library does not ship: a cache, a limit on calls in flight and a
/// record of every attempt, written with the public API only (`APIKitTestTime`), over the
/// transport of this run and a real server.
@Suite("The interceptor chain over a real server", .enabled(if: HTTPBin.url != nil, HTTPBin.skipReason))
struct ChainIntegrationTests {
    @Test(
        "a cache answers a repeated GET from memory: one request reaches the server, every kind of call gets the body")
    func cacheAnswersWithoutNext() async throws {
        let cache = MemoryCache()
        let attempts = AttemptLog()
        // the log sits after the cache: it sees only what reaches the transport
        let session = Session(transport: TestTransport.make(), interceptors: [cache, attempts])
        let request = GetRequest(path: "uuid", parser: RawDataParser())

        let first = try await request.response(using: session).object
        let second = try await request.response(using: session).object
        var streamed = Data()
        for try await chunk in request.stream(using: session) { streamed.append(chunk) }
        let scratch = try ScratchDirectory()
        let downloaded = try await request.download(to: scratch.url.appendingPathComponent("uuid"), using: session)

        #expect(first.count > 30, "httpbin's /uuid answers a fresh UUID: \(String(decoding: first, as: UTF8.self))")
        #expect(second == first)
        #expect(streamed == first)
        #expect(try Data(contentsOf: downloaded.fileURL) == first)
        #expect(attempts.entries.count == 1)
        #expect(cache.count == 1)
    }

    @Test("a host limit of 2: never more than 2 calls in flight, all 8 answered")
    func hostLimit() async throws {
        let limit = HostLimit(limit: 2)
        let session = Session(transport: TestTransport.make(), interceptors: [limit])
        let answered = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { try await DelayRequest(seconds: 1).response(using: session).count }
            }
            return try await group.reduce(0) { total, _ in total + 1 }
        }
        #expect(answered == 8)
        #expect((1...2).contains(limit.mostInFlight))
    }

    @Test("every attempt is recorded, retries included, with its number, status and time")
    func attemptsRecorded() async throws {
        let attempts = AttemptLog()
        let policy = RetryPolicy(maxAttempts: 3, backoff: .init(baseDelay: 0), maxRetryAfter: 0)
        let session = Session(transport: TestTransport.make(), interceptors: [attempts], retryPolicy: policy)
        let error = await #expect(throws: RequestError.self) {
            try await StatusRequest(code: 503).response(using: session)
        }
        #expect(error?.statusCode == 503)
        #expect(error?.context.attempts == 3)
        let entries = attempts.entries
        #expect(entries.map(\.attempt) == [1, 2, 3])
        #expect(entries.map(\.status) == [503, 503, 503])
        #expect(entries.allSatisfy { $0.duration > .zero && $0.method == .get })
    }
}
