import APIKit
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

@testable import APIKitAsyncHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The table from SwiftNIO's and AsyncHTTPClient's errors to the URLError a caller gets, for the
// errors the real servers of the other suites cannot be made to produce on demand.
@Suite("URLError from AsyncHTTPClient's errors: the code that fits, the error underneath")
struct URLErrorAsyncHTTPClientTests {
    struct Unrelated: Error {}

    static let table: [(error: any Error & Sendable, code: URLError.Code?)] = [
        (CancellationError(), .cancelled),
        (HTTPClientError.cancelled, .cancelled),
        (HTTPClientError.readTimeout, .timedOut),
        (HTTPClientError.connectTimeout, .timedOut),
        (HTTPClientError.deadlineExceeded, .timedOut),
        (HTTPClientError.remoteConnectionClosed, .networkConnectionLost),
        (HTTPClientError.redirectLimitReached, .httpTooManyRedirects),
        (HTTPClientError.redirectCycleDetected, .httpTooManyRedirects),
        (HTTPClientError.emptyHost, .badURL),
        (HTTPClientError.unsupportedScheme("gopher"), .unsupportedURL),
        (HTTPClientError.bodyLengthMismatch, nil),
        (IOError(errnoCode: ECONNREFUSED, reason: "connect"), .cannotConnectToHost),
        (IOError(errnoCode: ECONNRESET, reason: "read"), .networkConnectionLost),
        (IOError(errnoCode: EPIPE, reason: "write"), .networkConnectionLost),
        (IOError(errnoCode: ETIMEDOUT, reason: "read"), .timedOut),
        (IOError(errnoCode: ENOENT, reason: "open"), nil),
        (ChannelError.connectTimeout(.seconds(1)), .timedOut),
        (ChannelError.eof, .networkConnectionLost),
        (ChannelError.ioOnClosedChannel, .networkConnectionLost),
        (ChannelError.outputClosed, .networkConnectionLost),
        (ChannelError.alreadyClosed, .networkConnectionLost),
        (ChannelError.inappropriateOperationForState, nil),
        (NIOSSLExtraError.failedToValidateHostname, .serverCertificateUntrusted),
        (NIOSSLExtraError.invalidSNIHostname, .secureConnectionFailed),
        (NIOSSLError.writeDuringTLSShutdown, .secureConnectionFailed),
        (HTTPParserError.invalidEOFState, .networkConnectionLost),
        (HTTPParserError.invalidStatus, .badServerResponse),
        (Unrelated(), nil),
    ]

    @Test("each error maps to its code, or to none", arguments: 0..<table.count)
    func code(row: Int) {
        let (error, code) = Self.table[row]
        #expect(URLError.code(for: error) == code, "\(error)")
    }

    @Test("a name SwiftNIO cannot resolve (SocketAddressError.UnknownHost) is cannotFindHost")
    func unknownHost() {
        // an empty name fails in getaddrinfo without asking any DNS server
        #expect {
            _ = try SocketAddress.makeAddressResolvingHost("", port: 80)
        } throws: { error in
            error is SocketAddressError.UnknownHost && URLError.code(for: error) == .cannotFindHost
        }
    }

    @Test("a mapped error is a URLError with the original underneath and the failing URL; others stay as they are")
    func mapping() throws {
        let url = URL(string: "https://api.example.test/items")!
        let mapped = try #require(URLError.mapping(ChannelError.eof, url: url) as? URLError)
        #expect(mapped.code == .networkConnectionLost)
        #expect(mapped.userInfo[NSUnderlyingErrorKey] as? ChannelError == .eof)
        #expect(mapped.failingURL == url)
        #expect(URLError.mapping(Unrelated(), url: url) is Unrelated)
        let own = URLError(.badServerResponse)
        #expect((URLError.mapping(own, url: url) as? URLError)?.code == .badServerResponse)
    }

    @Test("the verdict: a timeout wins even over a response; a failure after a cancellation is cancelled")
    func verdict() throws {
        let url = URL(string: "https://api.example.test/items")!
        let head = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)!
        let answered = Result<TransportResponse, any Error>.success(TransportResponse(data: Data(), urlResponse: head))
        let failed = Result<TransportResponse, any Error>.failure(ChannelError.eof)
        func code(_ result: Result<TransportResponse, any Error>) -> URLError.Code? {
            guard case .failure(let error) = result else { return nil }
            return (error as? URLError)?.code
        }
        #expect(code(URLError.verdict(answered, isTimedOut: true, isCancelled: false, url: url)) == .timedOut)
        #expect(code(URLError.verdict(failed, isTimedOut: true, isCancelled: true, url: url)) == .timedOut)
        #expect(code(URLError.verdict(failed, isTimedOut: false, isCancelled: true, url: url)) == .cancelled)
        #expect(
            code(URLError.verdict(failed, isTimedOut: false, isCancelled: false, url: url)) == .networkConnectionLost)
        // a response that came before a cancellation is still the response
        guard case .success = URLError.verdict(answered, isTimedOut: false, isCancelled: true, url: url) else {
            Issue.record("a response was turned into a failure")
            return
        }
    }
}
