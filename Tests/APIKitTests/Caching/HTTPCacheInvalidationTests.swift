@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("HTTP cache: invalidation after unsafe methods (RFC 9111 §4.4)")
    struct HTTPCacheInvalidationTests {
        /// A cache where a GET is fresh for 100 s, and other methods answer `status` with `headers`.
        private static func harness(status: Int = 200, headers: [String: String] = [:]) -> CacheHarness {
            CacheHarness { request, count in
                request.httpMethod == "GET"
                    ? .success(headers: ["Cache-Control": "max-age=100"], body: "\(request.url!.path) \(count)")
                    : .success(status: status, headers: headers, body: "changed")
            }
        }

        @Test(
            "A non-error response to an unsafe method removes what is stored for its URL",
            arguments: [HTTPMethod.post, .put, .patch, .delete, HTTPMethod(rawValue: "PURGE")])
        func unsafeMethods(method: HTTPMethod) async throws {
            let harness = Self.harness(status: 204)
            _ = try await harness.send()
            _ = try await harness.send(CacheCall(method: method))
            #expect(try await !harness.send().fromCache)
        }

        @Test("A redirect also invalidates; an error does not", arguments: [(303, true), (404, false), (500, false)])
        func statuses(status: Int, invalidates: Bool) async throws {
            let harness = Self.harness(status: status)
            _ = try await harness.send()
            _ = try await harness.send(CacheCall(method: .post))
            #expect(try await harness.send().fromCache == !invalidates)
        }

        @Test("Safe methods invalidate nothing", arguments: [HTTPMethod.head, .options])
        func safeMethods(method: HTTPMethod) async throws {
            let harness = Self.harness()
            _ = try await harness.send()
            _ = try await harness.send(CacheCall(method: method))
            #expect(try await harness.send().fromCache)
        }

        @Test("Location and Content-Location on the same origin are invalidated too, relative or absolute")
        func locations() async throws {
            let harness = Self.harness(headers: [
                "Location": "/v1/created", "Content-Location": "https://API.example.test:443/v1/described",
            ])
            for path in ["created", "described", "untouched"] { _ = try await harness.send(CacheCall(path)) }
            _ = try await harness.send(CacheCall("collection", method: .post))
            #expect(try await !harness.send(CacheCall("created")).fromCache)
            #expect(try await !harness.send(CacheCall("described")).fromCache)
            #expect(try await harness.send(CacheCall("untouched")).fromCache)
        }

        @Test("Locations on another origin are left alone")
        func otherOrigin() async throws {
            let harness = Self.harness(headers: [
                "Location": "https://evil.example.test/v1/created",
                "Content-Location": "http://api.example.test/v1/described",
            ])
            for path in ["created", "described"] { _ = try await harness.send(CacheCall(path)) }
            _ = try await harness.send(CacheCall("collection", method: .post))
            #expect(try await harness.send(CacheCall("created")).fromCache)
            #expect(try await harness.send(CacheCall("described")).fromCache)
        }

        @Test("Invalidation reaches every user's responses for the URL")
        func everyCredential() async throws {
            let harness = Self.harness()
            let ada = CacheCall(headers: ["Authorization": "Bearer ada"])
            _ = try await harness.send(ada)
            _ = try await harness.send()
            _ = try await harness.send(CacheCall(method: .put, headers: ["Authorization": "Bearer bob"]))
            #expect(try await !harness.send(ada).fromCache)
            #expect(try await !harness.send().fromCache)
        }

        @Test("A damaged record is treated as absent and removed")
        func damagedRecord() async throws {
            let harness = Self.harness()
            let key = CacheKey.record(method: "GET", url: stubBase.appendingPathComponent("resource"))
            await harness.store.setRecord(Data("AKC1 torn".utf8), forKey: key)
            #expect(try await harness.send().body == "/v1/resource 1")
            #expect(try await harness.send().fromCache)
        }
    }
}
