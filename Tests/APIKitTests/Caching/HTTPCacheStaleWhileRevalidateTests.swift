import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("HTTP cache: stale-while-revalidate (RFC 5861 §3)")
    struct HTTPCacheStaleWhileRevalidateTests {
        /// A link that changes the request with `change`.
        private struct Adapting: AdaptingInterceptor {
            let change: @Sendable (URLRequest) -> URLRequest

            func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
                change(urlRequest)
            }
        }

        /// Stores `body 1` with `cacheControl` and an ETag; a validation is answered after 5 s on
        /// the harness's clock with `body N` and a new ETag, and `max-age=100`.
        private static func harness(_ cacheControl: String = "max-age=10, stale-while-revalidate=60") -> CacheHarness {
            CacheHarness { request, count in
                if request.value(forHTTPHeaderField: "If-None-Match") != nil {
                    return .success(
                        headers: ["Cache-Control": "max-age=100", "ETag": #""v\#(count)""#], body: "body \(count)",
                        delay: 5)
                }
                return .success(headers: ["Cache-Control": cacheControl, "ETag": #""v1""#], body: "body \(count)")
            }
        }

        @Test("A response stale within the window answers at once; one background validation updates the store")
        func servedAtOnce() async throws {
            let harness = Self.harness()
            _ = try await harness.send()
            harness.time.advance(by: 30)
            let stale = try await harness.send()
            #expect(stale.body == "body 1")
            #expect(stale.fromCache)
            #expect(stale.headers["cache-status"] == "APIKit; hit; ttl=-20; detail=stale-while-revalidate")
            #expect(stale.headers["age"] == "30")
            // The call returned while its validation waits for the server's answer.
            #expect(await harness.time.nextWait() == 5)
            #expect(harness.requests.count == 2)
            #expect(harness.requests[1].value(forHTTPHeaderField: "If-None-Match") == #""v1""#)
            harness.time.advance(by: 5)
            await harness.cache.revalidationsFinished()
            let fresh = try await harness.send()
            #expect(fresh.body == "body 2", "the validation's response was stored")
            #expect(fresh.headers["cache-status"] == "APIKit; hit; ttl=95", "the 5 s the answer took count in its age")
            #expect(harness.requests.count == 2)
        }

        @Test("Calls during a validation are served stale too, and start no second one")
        func onePerResponse() async throws {
            let harness = Self.harness()
            _ = try await harness.send()
            harness.time.advance(by: 30)
            _ = try await harness.send()
            #expect(await harness.time.nextWait() == 5)
            for _ in 0..<3 {
                #expect(try await harness.send().body == "body 1")
            }
            #expect(harness.requests.count == 2)
            #expect(harness.cache.revalidations.withLock { $0.count } == 1)
            harness.time.advance(by: 5)
            await harness.cache.revalidationsFinished()
            #expect(harness.cache.revalidations.withLock { $0.isEmpty })
            #expect(try await harness.send().body == "body 2")
        }

        /// A response stored with `max-age=10, stale-while-revalidate=60` and `ETag: "v1"`, asked
        /// for 20 s later (answered stale, validated in the background, where the server answers
        /// `answered`), then asked for once the validation has finished. Returns the harness and
        /// that last answer.
        private static func afterBackgroundValidation(
            answered: StubResponse
        ) async throws -> (CacheHarness, CacheAnswer) {
            let harness = CacheHarness { request, _ in
                request.value(forHTTPHeaderField: "If-None-Match") != nil
                    ? answered
                    : .success(
                        headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60", "ETag": #""v1""#],
                        body: "stored")
            }
            _ = try await harness.send()
            harness.time.advance(by: 20)
            #expect(try await harness.send().body == "stored")
            await harness.cache.revalidationsFinished()
            return (harness, try await harness.send())
        }

        @Test("A 304 to the background validation freshens the stored response")
        func notModified() async throws {
            let (harness, fresh) = try await Self.afterBackgroundValidation(
                answered: .success(status: 304, headers: ["Cache-Control": "max-age=50", "ETag": #""v1""#]))
            #expect(fresh.headers["cache-status"] == "APIKit; hit; ttl=50")
            #expect(harness.requests.count == 2)
        }

        @Test(
            "A 500, 502, 503 or 504 to the background validation leaves the store as it was, even when it may be stored",
            arguments: [500, 502, 503, 504])
        func serverErrorLeavesTheStore(status: Int) async throws {
            let (_, next) = try await Self.afterBackgroundValidation(
                answered: .success(status: status, headers: ["Cache-Control": "max-age=300"], body: "down"))
            #expect(next.body == "stored", "the error response replaced the stored one")
            #expect(next.headers["cache-status"] == "APIKit; hit; ttl=-10; detail=stale-while-revalidate")
        }

        @Test("Beyond the window the stale response is validated before the call returns")
        func beyondWindow() async throws {
            let harness = Self.harness()
            _ = try await harness.send()
            harness.time.advance(by: 71)
            let session = harness.session
            let call = Task { try await CacheCall().response(using: session) }
            #expect(await harness.time.nextWait() == 5)
            harness.time.advance(by: 5)
            let answer = try await call.value
            #expect(answer.body == "body 2")
            #expect(harness.cache.revalidations.withLock { $0.isEmpty })
        }

        @Test(
            "No background validation for must-revalidate or no-cache responses, nor requests with no-cache, max-age or min-fresh",
            arguments: [
                ("max-age=10, stale-while-revalidate=60, must-revalidate", nil),
                ("max-age=10, stale-while-revalidate=60, no-cache", nil),
                ("max-age=10, stale-while-revalidate=60", "no-cache"),
                ("max-age=10, stale-while-revalidate=60", "max-age=20"),
                ("max-age=10, stale-while-revalidate=60", "min-fresh=1"),
            ] as [(String, String?)])
        func notInBackground(response: String, request: String?) async throws {
            let harness = Self.harness(response)
            _ = try await harness.send()
            harness.time.advance(by: 30)
            let session = harness.session
            let headers = request.map { ["Cache-Control": $0] } ?? [:]
            let call = Task { try await CacheCall(headers: headers).response(using: session) }
            #expect(await harness.time.nextWait() == 5)
            harness.time.advance(by: 5)
            #expect(try await call.value.body == "body 2", "validated in the call")
            #expect(harness.cache.revalidations.withLock { $0.isEmpty })
        }

        @Test("A failed background validation leaves the stored response as it was")
        func failure() async throws {
            let harness = CacheHarness { _, count in
                count == 1
                    ? .success(
                        headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60", "ETag": #""v1""#],
                        body: "stored")
                    : .failure(URLError(.cannotConnectToHost))
            }
            _ = try await harness.send()
            harness.time.advance(by: 20)
            #expect(try await harness.send().body == "stored")
            await harness.cache.revalidationsFinished()
            let again = try await harness.send()
            #expect(again.body == "stored")
            #expect(again.headers["cache-status"] == "APIKit; hit; ttl=-10; detail=stale-while-revalidate")
            await harness.cache.revalidationsFinished()
            #expect(harness.requests.count == 3, "each stale call after a failure tries again")
        }

        @Test("The validation goes through the links after the cache, not those before it")
        func laterLinks() async throws {
            let harness = Self.harness()
            let before = Protected<[String]>([])
            let after = Protected<[String]>([])
            var session = harness.session
            session.interceptors = [
                Adapting { request in
                    before.append(request.value(forHTTPHeaderField: "If-None-Match") ?? "-")
                    return request
                },
                harness.cache,
                Adapting { request in
                    after.append(request.value(forHTTPHeaderField: "If-None-Match") ?? "-")
                    var request = request
                    request.setValue("added", forHTTPHeaderField: "X-After")
                    return request
                },
            ]
            _ = try await CacheCall().response(using: session)
            harness.time.advance(by: 30)
            _ = try await CacheCall().response(using: session)
            #expect(await harness.time.nextWait() == 5)
            harness.time.advance(by: 5)
            await harness.cache.revalidationsFinished()
            #expect(before.value == ["-", "-"])
            #expect(after.value == ["-", #""v1""#])
            #expect(harness.requests.last?.value(forHTTPHeaderField: "X-After") == "added")
        }

        @Test("The call's events show the outcome; the background validation is a call of its own, sent once")
        func events() async throws {
            let harness = Self.harness()
            let log = CallEventLog()
            var session = harness.session
            session.onCallEvent = log.observer
            _ = try await CacheCall().response(using: session)
            harness.time.advance(by: 30)
            _ = try await CacheCall().response(using: session)
            #expect(await harness.time.nextWait() == 5)
            harness.time.advance(by: 5)
            await harness.cache.revalidationsFinished()
            #expect(await log.waitForEnds(3))
            let ids = log.callIDs
            #expect(ids.count == 3)
            #expect(
                log.names(of: ids[1]) == [
                    "callStarted", "attemptStarted(1)", "cacheOutcome(staleWhileRevalidate)", "bodyEnded", "finished",
                ])
            #expect(log.metrics(of: ids[1])?.attempts == 0, "the stale answer sent nothing")
            // the validation, logged and observed as every request the session sends
            let validation = log.names(of: ids[2])
            #expect(validation.first == "callStarted", "\(validation)")
            #expect(validation.filter { $0.hasPrefix("requestSent") }.count == 1, "\(validation)")
            #expect(validation.last == "finished", "\(validation)")
            #expect(log.metrics(of: ids[2])?.attempts == 1)
        }
    }
}
