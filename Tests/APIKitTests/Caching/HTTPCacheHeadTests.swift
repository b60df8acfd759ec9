import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("HTTP cache: HEAD (RFC 9111 §4, §4.3.5)")
    struct HTTPCacheHeadTests {
        private static let head = CacheCall(method: .head)

        /// A `GET` is answered `stored body` with `getHeaders`; a `HEAD` with `headHeaders` and
        /// `headStatus`, without a body.
        private static func harness(
            get getHeaders: [String: String] = ["Cache-Control": "max-age=10", "ETag": #""v1""#, "X-Version": "1"],
            head headHeaders: [String: String] = [:], headStatus: Int = 200
        ) -> CacheHarness {
            CacheHarness { request, count in
                request.httpMethod == "HEAD"
                    ? .success(status: headStatus, headers: headHeaders)
                    : .success(headers: getHeaders, body: "stored body \(count)")
            }
        }

        @Test("A HEAD is answered with the head of the fresh stored GET response: no body, no request")
        func answeredFromGet() async throws {
            let harness = Self.harness(get: ["Cache-Control": "max-age=60", "ETag": #""v1""#, "Content-Length": "13"])
            let log = CallEventLog()
            var session = harness.session
            session.onCallEvent = log.observer
            _ = try await CacheCall().response(using: session)
            harness.time.advance(by: 10)
            let answer = try await Self.head.response(using: session)
            #expect(answer.body == "")
            #expect(answer.status == 200)
            #expect(answer.fromCache)
            #expect(answer.headers["cache-status"] == "APIKit; hit; ttl=50")
            #expect(answer.headers["age"] == "10")
            #expect(answer.headers["etag"] == #""v1""#)
            #expect(answer.headers["content-length"] == "13", "the length of the GET's body, as a HEAD's is")
            #expect(harness.requests.count == 1)
            #expect(log.names(of: log.callIDs[1]).contains("cacheOutcome(hit)"))
        }

        @Test("A HEAD for a stale GET response is sent as a HEAD; its 200 with the same validator freshens it")
        func freshens() async throws {
            let harness = Self.harness(head: ["Cache-Control": "max-age=100", "ETag": #""v1""#, "X-Version": "2"])
            _ = try await harness.send()
            harness.time.advance(by: 20)
            let head = try await harness.send(Self.head)
            #expect(head.status == 200)
            #expect(!head.fromCache)
            #expect(harness.requests.map(\.httpMethod) == ["GET", "HEAD"])
            #expect(
                harness.requests.last?.value(forHTTPHeaderField: "If-None-Match") == nil, "the caller's HEAD, as sent")
            harness.time.advance(by: 30)
            let get = try await harness.send()
            #expect(get.body == "stored body 1", "the stored body, under the HEAD's fields")
            #expect(get.fromCache)
            #expect(get.headers["x-version"] == "2")
            #expect(get.headers["cache-status"] == "APIKit; hit; ttl=70", "its age starts again at the HEAD")
            #expect(harness.requests.count == 2)
        }

        @Test("A HEAD's 200 without Age or Date starts the stored response's age again")
        func freshenResetsAge() async throws {
            let harness = Self.harness(
                get: [
                    "Cache-Control": "max-age=120", "ETag": #""v1""#, "Age": "200",
                    "Date": HTTPCacheFreshnessTests.start(0),
                ],
                head: ["Cache-Control": "max-age=120", "ETag": #""v1""#])
            _ = try await harness.send()
            harness.time.advance(by: 130)
            _ = try await harness.send(Self.head)
            harness.time.advance(by: 10)
            let get = try await harness.send()
            #expect(get.body == "stored body 1")
            #expect(get.headers["cache-status"] == "APIKit; hit; ttl=110")
            #expect(harness.requests.count == 2)
        }

        @Test("A HEAD's 200 reached through a redirect freshens nothing: it describes another URL")
        func redirectedHeadDoesNotFreshen() async throws {
            let redirect = FollowsRedirect(from: "resource", to: "elsewhere") { $0.httpMethod == "HEAD" }
            let harness = CacheHarness(after: [redirect]) { request, count in
                request.httpMethod == "HEAD"
                    ? .success(headers: ["Cache-Control": "max-age=100", "ETag": #""v1""#])
                    : .success(
                        headers: ["Cache-Control": "max-age=10", "ETag": #""v1""#], body: "stored body \(count)")
            }
            _ = try await harness.send()
            harness.time.advance(by: 20)
            _ = try await harness.send(Self.head)
            let get = try await harness.send()
            #expect(get.body == "stored body 3", "the stored response is still stale")
            #expect(harness.requests.map(\.httpMethod) == ["GET", "HEAD", "GET"])
        }

        @Test("A HEAD's 200 without validators freshens the stored response; its Content-Length is not taken")
        func freshensWithoutValidators() async throws {
            let harness = Self.harness(head: ["Cache-Control": "max-age=100", "Content-Length": "13"])
            _ = try await harness.send()
            harness.time.advance(by: 20)
            _ = try await harness.send(Self.head)
            let get = try await harness.send()
            #expect(get.body == "stored body 1")
            #expect(get.headers["content-length"] == nil, "a length is the body's own, never another response's")
            #expect(get.headers["cache-status"] == "APIKit; hit; ttl=100")
            #expect(get.headers["etag"] == #""v1""#, "the stored fields the HEAD did not send are kept")
            #expect(harness.requests.count == 2)
        }

        @Test(
            "A HEAD's 200 that disagrees with the stored response — another validator or length — removes it",
            arguments: [
                ["Cache-Control": "max-age=100", "ETag": #""v2""#],
                ["Cache-Control": "max-age=100", "Last-Modified": "Mon, 02 Jan 2006 15:04:05 GMT"],
                ["Cache-Control": "max-age=100", "ETag": #""v1""#, "Content-Length": "99"],
            ])
        func disagreeing(head: [String: String]) async throws {
            let harness = Self.harness(head: head)
            _ = try await harness.send()
            harness.time.advance(by: 20)
            _ = try await harness.send(Self.head)
            let get = try await harness.send()
            #expect(get.body == "stored body 3", "fetched anew")
            #expect(!get.fromCache)
            #expect(harness.requests.count == 3)
            #expect(
                harness.requests.last?.value(forHTTPHeaderField: "If-None-Match") == nil, "nothing left to validate")
        }

        @Test("A HEAD answered with another status than 200 leaves the stored response as it was")
        func notOK() async throws {
            let harness = Self.harness(head: ["Cache-Control": "max-age=100", "ETag": #""v2""#], headStatus: 404)
            _ = try await harness.send()
            harness.time.advance(by: 20)
            #expect(try await harness.send(Self.head).status == 404)
            harness.respond { _, _ in .success(status: 304, headers: ["ETag": #""v1""#]) }
            let get = try await harness.send()
            #expect(get.body == "stored body 1")
            #expect(get.headers["cache-status"] == "APIKit; fwd=stale; fwd-status=304")
            #expect(harness.requests.count == 3)
            #expect(harness.requests.last?.value(forHTTPHeaderField: "If-None-Match") == #""v1""#)
        }

        @Test("A HEAD's response is never stored: the GET and the HEAD after it go to the server")
        func notStored() async throws {
            let harness = Self.harness(head: ["Cache-Control": "max-age=100", "ETag": #""v1""#])
            _ = try await harness.send(Self.head)
            let get = try await harness.send()
            #expect(get.body == "stored body 2")
            #expect(!get.fromCache)
            _ = try await harness.send(CacheCall("other", method: .head))
            _ = try await harness.send(CacheCall("other", method: .head))
            #expect(harness.requests.map(\.httpMethod) == ["HEAD", "GET", "HEAD", "HEAD"])
            #expect(try await harness.send(Self.head).fromCache, "a stored GET response answers it")
            #expect(harness.requests.count == 4)
        }

        @Test("Another user's, or another variant's, stored response neither answers a HEAD nor is freshened by it")
        func otherPartition() async throws {
            let harness = Self.harness(
                get: ["Cache-Control": "max-age=10", "ETag": #""v1""#, "Vary": "Accept-Language"],
                head: ["Cache-Control": "max-age=100", "ETag": #""v2""#])
            _ = try await harness.send(CacheCall(headers: ["Authorization": "Bearer a", "Accept-Language": "en"]))
            _ = try await harness.send(
                CacheCall(method: .head, headers: ["Authorization": "Bearer b", "Accept-Language": "en"]))
            _ = try await harness.send(
                CacheCall(method: .head, headers: ["Authorization": "Bearer a", "Accept-Language": "fr"]))
            #expect(harness.requests.map(\.httpMethod) == ["GET", "HEAD", "HEAD"])
            let get = try await harness.send(
                CacheCall(headers: ["Authorization": "Bearer a", "Accept-Language": "en"]))
            #expect(get.body == "stored body 1", "kept: the HEADs with another ETag selected other responses")
            #expect(get.fromCache)
        }

        @Test(
            "A HEAD with only-if-cached: notCached without sending when nothing fresh is stored, else the stored head")
        func onlyIfCached() async throws {
            let harness = Self.harness()
            let onlyCached = CacheCall(method: .head, headers: ["Cache-Control": "only-if-cached"])
            let error = await #expect(throws: RequestError.self) { try await harness.send(onlyCached) }
            guard case .notCached = error else {
                Issue.record("expected notCached, got \(String(describing: error))")
                return
            }
            #expect(harness.requests.isEmpty)
            _ = try await harness.send()
            #expect(try await harness.send(onlyCached).fromCache, "answered by the stored GET response")
            #expect(harness.requests.count == 1)
        }

        @Test("A HEAD with its own conditional header is sent on untouched, and freshens nothing")
        func callersConditional() async throws {
            let harness = Self.harness(head: ["Cache-Control": "max-age=100", "ETag": #""v2""#])
            _ = try await harness.send()
            let head = try await harness.send(CacheCall(method: .head, headers: ["If-None-Match": #""v0""#]))
            #expect(!head.fromCache)
            #expect(harness.requests.count == 2)
            #expect(try await harness.send().body == "stored body 1", "still stored, still fresh")
            #expect(harness.requests.count == 2)
        }
    }
}
