import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    /// Streams and downloads pass by the cache unless it is made to answer them.
    @Suite("Streams and downloads: sent on untouched by default, answered from the store when asked")
    struct HTTPCacheBodyDeliveryTests {
        /// A cache whose network answers `v1`, `v2`, … fresh for a minute.
        private static func harness(answersStreamsAndDownloads: Bool) -> CacheHarness {
            CacheHarness(answersStreamsAndDownloads: answersStreamsAndDownloads) { _, count in
                .success(headers: ["Cache-Control": "max-age=60"], body: "v\(count)")
            }
        }

        private static func streamed(_ session: Session) async throws -> String {
            var body = Data()
            for try await chunk in CacheCall().stream(using: session) { body.append(chunk) }
            return String(decoding: body, as: UTF8.self)
        }

        private static func downloaded(_ session: Session) async throws -> String {
            let scratch = try ScratchDirectory("cache-download")
            defer { scratch.remove() }
            let file = scratch.file("body")
            _ = try await CacheCall().download(to: file, using: session)
            return String(decoding: try Data(contentsOf: file), as: UTF8.self)
        }

        @Test("By default a stream and a download go to the server beside a fresh stored response, which stays")
        func bypassedByDefault() async throws {
            let harness = Self.harness(answersStreamsAndDownloads: false)
            let session = harness.session
            #expect(try await CacheCall().response(using: session).body == "v1")
            #expect(try await Self.streamed(session) == "v2")
            #expect(try await Self.downloaded(session) == "v3")
            #expect(harness.requests.count == 3)
            let again = try await CacheCall().response(using: session)
            #expect(again.body == "v1", "the stream's and the download's responses were not stored")
            #expect(again.fromCache)
            #expect(harness.requests.count == 3)
        }

        @Test("With answersStreamsAndDownloads, the stored response answers a stream and a download")
        func answeredWhenAsked() async throws {
            let harness = Self.harness(answersStreamsAndDownloads: true)
            let session = harness.session
            #expect(try await CacheCall().response(using: session).body == "v1")
            #expect(try await Self.streamed(session) == "v1")
            #expect(try await Self.downloaded(session) == "v1")
            #expect(harness.requests.count == 1)
        }

        @Test("A stream's response is not stored: the next response() goes to the server")
        func bypassStoresNothing() async throws {
            let harness = Self.harness(answersStreamsAndDownloads: false)
            let session = harness.session
            #expect(try await Self.streamed(session) == "v1")
            let first = try await CacheCall().response(using: session)
            #expect(first.body == "v2")
            #expect(!first.fromCache)
            #expect(harness.requests.count == 2)
        }
    }
}
