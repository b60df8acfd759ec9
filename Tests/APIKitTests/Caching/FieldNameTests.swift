import Foundation
import Testing

@testable import APIKit

extension Caching {
    @Suite("Field names: compared as Foundation compares them, ASCII without Foundation")
    struct FieldNameTests {
        static let names = [
            "Age", "age", "AGE", "Ag", "Ages", "Cache-Control", "cache-control", "Cache_Control", "ETag", "etag",
            "X-Ünicode", "x-ünicode", "X-ÜNICODE", "Expires", "Expire\u{17F}", "", "@", "`", "[", "{",
        ]

        @Test("A response's names: the answer of caseInsensitiveCompare, for every pair")
        func responseNames() {
            for a in Self.names {
                for b in Self.names {
                    #expect(FieldName.same(a, b) == (a.caseInsensitiveCompare(b) == .orderedSame), "\(a) \(b)")
                }
            }
        }

        @Test("A request's names: the answer of lowercased(), for every pair")
        func requestNames() {
            for a in Self.names {
                for b in Self.names {
                    #expect(FieldName.sameInRequest(a, b) == (a.lowercased() == b.lowercased()), "\(a) \(b)")
                }
            }
        }

        @Test("A request's fields read as URLRequest.value(forHTTPHeaderField:) reads them")
        func requestFields() {
            var request = URLRequest(url: URL(string: "https://api.example.test/")!)
            request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
            request.setValue("Bearer a", forHTTPHeaderField: "authorization")
            request.setValue("é", forHTTPHeaderField: "X-Ünicode")
            let fields = RequestFields(request)
            for name in ["Cache-Control", "CACHE-CONTROL", "Authorization", "x-ünicode", "Pragma", "Age", ""] {
                #expect(fields.value(name) == request.value(forHTTPHeaderField: name), "\(name)")
            }
        }
    }
}
