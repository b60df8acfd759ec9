import Foundation
import Testing

@testable import APIKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("URLRequest.isIdentical(to:): nothing changed since")
struct URLRequestIdentityTests {
    private static func request() -> URLRequest {
        var request = URLRequest(url: URL(string: "https://api.example.com/items?page=1")!)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    @Test("a request handed back as it was is identical, copies included")
    func unchanged() {
        let original = Self.request()
        let copy = original
        #expect(copy.isIdentical(to: original))
        #expect(original.isIdentical(to: original))
    }

    @Test("any change to a copy makes it another request, even one that changes nothing visible")
    func changed() {
        let original = Self.request()
        var header = original
        header.setValue("5", forHTTPHeaderField: "Content-Length")
        #expect(!header.isIdentical(to: original))
        var sameValue = original
        sameValue.setValue("application/json", forHTTPHeaderField: "Accept")
        #expect(!sameValue.isIdentical(to: original))
        var timeout = original
        timeout.timeoutInterval = 5
        #expect(!timeout.isIdentical(to: original))
        // The original is untouched by its copies' changes.
        #expect(original.value(forHTTPHeaderField: "Content-Length") == nil)
    }

    @Test("an equal request made apart is not identical: the answer is only ever 'nothing changed'")
    func equalButSeparate() {
        #expect(Self.request() == Self.request())
        #expect(!Self.request().isIdentical(to: Self.request()))
    }
}
