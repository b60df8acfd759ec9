import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The last `HTTPURLResponse` the transport built, handed out again while responses come back
/// the same: the same URL, status, HTTP version and header fields, in the same order.
///
/// Building one is most of what the transport adds to a small request: on Linux, corelibs'
/// initializer canonicalises and checks every header field (Benchmarks/README.md has the cost),
/// and the response is built for every request, since ``APIKit/Request``'s hooks and parsers receive it. Nor can it be built lazily,
/// its fields filled on first read: corelibs' `statusCode` is a `let`, and `allHeaderFields` and
/// `value(forHTTPHeaderField:)` are not `open`, so a subclass cannot override them. A client polling an endpoint
/// gets the same head again and again, the `Date` changing once a second; comparing the fields
/// with the last head's costs a fraction of building it. An `HTTPURLResponse` cannot change
/// once made, so two requests that received identical heads may share one.
///
/// One entry, ``shared`` by the process: a miss costs the comparison and replaces the entry.
final class ResponseHeadCache: Sendable {
    /// The cache every transfer uses.
    static let shared = ResponseHeadCache()

    private struct Entry: @unchecked Sendable {
        // @unchecked: `HTTPURLResponse` is immutable, and corelibs marks it `@unchecked Sendable`
        // where Apple's Foundation does not say.
        let url: URL
        let status: UInt
        let version: HTTPVersion
        let headers: HTTPHeaders
        let response: HTTPURLResponse
    }

    private let last = NIOLockedValueBox<Entry?>(nil)

    /// The response for this head: the last one built when the head is the same, else a new one.
    ///
    /// - Parameters:
    ///   - url: The final URL.
    ///   - status: The status code.
    ///   - version: The HTTP version.
    ///   - headers: The header fields, as AsyncHTTPClient received them.
    ///   - build: Builds the response when the last one does not fit.
    /// - Returns: The response, or `nil` when `build` returns `nil`.
    func response(
        url: URL,
        status: UInt,
        version: HTTPVersion,
        headers: HTTPHeaders,
        build: () -> HTTPURLResponse?
    ) -> HTTPURLResponse? {
        if let entry = last.withLockedValue({ $0 }), entry.status == status, entry.version == version,
            Self.same(entry.headers, headers), entry.url == url
        {
            return entry.response
        }
        guard let response = build() else { return nil }
        let entry = Entry(url: url, status: status, version: version, headers: headers, response: response)
        last.withLockedValue { $0 = entry }
        return response
    }

    /// Whether the two header lists hold the same fields, byte for byte, in the same order.
    private static func same(_ left: HTTPHeaders, _ right: HTTPHeaders) -> Bool {
        guard left.count == right.count else { return false }
        for (a, b) in zip(left, right) where a.name != b.name || a.value != b.value {
            return false
        }
        return true
    }
}
