import Foundation
import Testing

@testable import APIKit

extension Caching {
    @Suite("Cache keys: method and URL, credential partitions, Vary normalisation (RFC 9111 §2, §4.1)")
    struct CacheKeyTests {
        private static func key(_ url: String, method: String = "GET") -> String {
            CacheKey.record(method: method, url: URL(string: url)!)
        }

        @Test("A key is the digest of method and URL, the same for equivalent URLs (RFC 9110 §4.2.3)")
        func recordKeys() {
            let key = Self.key("https://api.example.test/v1/items?page=2")
            #expect(key.count == 64)
            #expect(key.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            #expect(Self.key("HTTPS://API.Example.TEST:443/v1/items?page=2") == key)
            #expect(Self.key("https://api.example.test/v1/items?page=2#top") == key)
            #expect(Self.key("https://api.example.test/v1/items?page=2", method: "get") == key)
            #expect(Self.key("http://api.example.test:80/a") == Self.key("http://api.example.test/a"))
            #expect(Self.key("https://api.example.test:8443/v1/items?page=2") != key)
            #expect(Self.key("https://api.example.test/v1/Items?page=2") != key, "the path is case-sensitive")
            #expect(Self.key("https://api.example.test/v1/items?page=3") != key)
            #expect(Self.key("https://api.example.test/v1/items?page=2", method: "HEAD") != key)
        }

        @Test("A key read again, or past the keys kept, is the same key")
        func recordKeysKept() {
            let url = "https://api.example.test/kept?q=1"
            let key = SHA256.hex("GET \(url)")
            #expect(Self.key(url) == key)
            #expect(Self.key(url) == key)
            for index in 0..<300 { _ = Self.key("https://api.example.test/other/\(index)") }
            #expect(Self.key(url) == key)
            #expect(Self.key(url, method: "get") == key)
        }

        @Test("The partition is the digest of Authorization, empty without one")
        func partitions() {
            var request = URLRequest(url: URL(string: "https://api.example.test/")!)
            #expect(CacheKey.partition(of: request).isEmpty)
            request.setValue("Bearer a", forHTTPHeaderField: "authorization")
            #expect(CacheKey.partition(of: request) == SHA256.digest("Bearer a".utf8))
        }

        @Test("Vary names: lowercased, trimmed, without duplicates; * matches nothing")
        func varyNames() {
            #expect(CacheKey.varyNames(of: nil) == [])
            #expect(CacheKey.varyNames(of: " Accept ,ACCEPT-Encoding,, accept") == ["accept", "accept-encoding"])
            #expect(CacheKey.varyNames(of: "accept, *") == nil)
        }

        @Test("A fingerprint trims list elements and tells an absent header from an empty one")
        func fingerprints() {
            func fingerprint(_ value: String?) -> [UInt8] {
                var request = URLRequest(url: URL(string: "https://api.example.test/")!)
                request.setValue(value, forHTTPHeaderField: "Accept")
                return CacheKey.varyFingerprint(of: request, names: ["accept"])
            }
            #expect(fingerprint("a, b") == fingerprint("a,b"))
            #expect(fingerprint(" a ,\tb ") == fingerprint("a,b"))
            #expect(fingerprint("b,a") != fingerprint("a,b"))
            #expect(fingerprint("") != fingerprint(nil))
            #expect(CacheKey.varyFingerprint(of: URLRequest(url: URL(string: "https://x.test/")!), names: []).isEmpty)
        }

        @Test("A response's URL is the request's target when they compare the same; a redirect's is not")
        func sameTarget() {
            func same(_ response: String, _ request: String) -> Bool {
                CacheKey.isSameTarget(URL(string: response), as: URL(string: request))
            }
            #expect(same("https://api.example.test/a?x=1", "https://api.example.test/a?x=1"))
            #expect(same("HTTPS://API.example.test:443/a", "https://api.example.test/a#part"))
            #expect(same("https://api.example.test/", "https://api.example.test"), "an empty path is /")
            #expect(!same("https://api.example.test/b", "https://api.example.test/a"))
            #expect(!same("https://api.example.test/a?x=2", "https://api.example.test/a?x=1"))
            #expect(!same("http://api.example.test/a", "https://api.example.test/a"))
            #expect(CacheKey.isSameTarget(nil, as: URL(string: "https://api.example.test/a")))
        }
    }
}
