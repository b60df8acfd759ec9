import Foundation
import Testing

@testable import APIKit

@Suite("URLSessionConfiguration.acceptingCookiesOnlyWithStorage")
struct URLSessionConfigurationCookiesTests {
    @Test("without a storage: a copy that accepts no cookies, every other setting kept, the original unchanged")
    func withoutStorage() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpCookieAcceptPolicy = .onlyFromMainDocumentDomain
        configuration.httpMaximumConnectionsPerHost = 7
        configuration.timeoutIntervalForRequest = 12
        configuration.httpAdditionalHeaders = ["X-Kept": "yes"]

        let used = configuration.acceptingCookiesOnlyWithStorage

        #expect(used !== configuration)
        #expect(used.httpCookieAcceptPolicy == .never)
        #expect(used.httpCookieStorage == nil)
        #expect(used.httpMaximumConnectionsPerHost == 7)
        #expect(used.timeoutIntervalForRequest == 12)
        #expect(used.httpAdditionalHeaders?["X-Kept"] as? String == "yes")
        #expect(configuration.httpCookieAcceptPolicy == .onlyFromMainDocumentDomain)
    }

    @Test("with a storage: the configuration itself, its policy as it was")
    func withStorage() throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .always
        try #require(configuration.httpCookieStorage != nil, "an ephemeral configuration has a storage")

        let used = configuration.acceptingCookiesOnlyWithStorage

        #expect(used === configuration)
        #expect(used.httpCookieAcceptPolicy == .always)
    }

    @Test("without a storage and already accepting none: the configuration itself")
    func alreadyNever() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpCookieAcceptPolicy = .never

        #expect(configuration.acceptingCookiesOnlyWithStorage === configuration)
    }

    @Test("URLSessionTransport sends with such a copy: no storage, no cookies accepted; with one, the policy kept")
    func transportUsesIt() {
        let cookieless = URLSessionConfiguration.ephemeral
        cookieless.httpCookieStorage = nil
        cookieless.httpCookieAcceptPolicy = .always
        let keeping = URLSessionConfiguration.ephemeral
        keeping.httpCookieAcceptPolicy = .always

        #expect(URLSessionTransport(configuration: cookieless).session.configuration.httpCookieAcceptPolicy == .never)
        #expect(URLSessionTransport(configuration: keeping).session.configuration.httpCookieAcceptPolicy == .always)
        #expect(cookieless.httpCookieAcceptPolicy == .always)
    }
}
