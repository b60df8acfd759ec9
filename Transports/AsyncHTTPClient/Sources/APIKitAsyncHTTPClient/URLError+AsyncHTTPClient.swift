import APIKit
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension URLError {
    /// A `URLError` with `code`, carrying `underlying` as `NSUnderlyingErrorKey` and the URL as
    /// the failing URL.
    init(_ code: Code, underlying: (any Error)?, url: URL?) {
        var userInfo: [String: Any] = [:]
        if let underlying { userInfo[NSUnderlyingErrorKey] = underlying }
        if let url {
            userInfo[NSURLErrorFailingURLErrorKey] = url
        }
        self.init(code, userInfo: userInfo)
    }

    /// `error` as a `URLError` when one fits (see ``AsyncHTTPClientTransport`` for the table),
    /// with `error` reachable as `userInfo[NSUnderlyingErrorKey]`; otherwise `error` itself.
    /// How a transfer of either road ends: a timeout, once declared, is the verdict even when
    /// the exchange then succeeded; a failure after a cancellation is `.cancelled`; any other
    /// failure is mapped to the `URLError` that fits.
    ///
    /// - Parameters:
    ///   - outcome: What the exchange delivered.
    ///   - isTimedOut: Whether the idle sweeper timed the transfer out.
    ///   - isCancelled: Whether the transfer was cancelled.
    ///   - url: The request's URL, for the error.
    /// - Returns: The result the completion or the stream receives.
    static func verdict(
        _ outcome: Result<TransportResponse, any Error>, isTimedOut: Bool, isCancelled: Bool, url: URL?
    ) -> Result<TransportResponse, any Error> {
        switch outcome {
        case _ where isTimedOut: .failure(URLError(.timedOut, underlying: nil, url: url))
        case .success: outcome
        case .failure(let error) where isCancelled: .failure(URLError(.cancelled, underlying: error, url: url))
        case .failure(let error): .failure(mapping(error, url: url))
        }
    }

    static func mapping(_ error: any Error, url: URL?) -> any Error {
        if error is URLError { return error }
        guard let code = code(for: error) else { return error }
        return URLError(code, underlying: error, url: url)
    }

    /// The `URLError` code that fits `error`, if one does.
    static func code(for error: any Error) -> Code? {
        switch error {
        case is CancellationError:
            return .cancelled
        case let error as HTTPClientError:
            return code(for: error)
        case let error as NIOConnectionError:
            if !error.connectionErrors.isEmpty {
                return .cannotConnectToHost
            }
            return error.dnsAError != nil || error.dnsAAAAError != nil ? .cannotFindHost : .cannotConnectToHost
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL: return .cannotConnectToHost
            case ECONNRESET, EPIPE, ECONNABORTED: return .networkConnectionLost
            case ETIMEDOUT: return .timedOut
            default: return nil
            }
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return .timedOut
            case .eof, .ioOnClosedChannel, .outputClosed, .alreadyClosed: return .networkConnectionLost
            default: return nil
            }
        case let error as NIOSSLExtraError:
            return error == .failedToValidateHostname ? .serverCertificateUntrusted : .secureConnectionFailed
        case let error as NIOSSLError:
            if case .handshakeFailed(let reason) = error { return handshakeCode(for: reason) }
            return .secureConnectionFailed
        case let error as BoringSSLError:
            return handshakeCode(for: error)
        case HTTPParserError.invalidEOFState:
            // the connection closed before the body its head announced: a body cut off
            return .networkConnectionLost
        case is HTTPParserError:
            return .badServerResponse
        case is SocketAddressError, is SocketAddressError.UnknownHost:
            // SwiftNIO's name resolution fails with `UnknownHost` (its older `.unknown` case is deprecated)
            return .cannotFindHost
        default:
            return nil
        }
    }

    /// A refused certificate (an unknown authority, another host name, expired) is
    /// `serverCertificateUntrusted`, as URLSession reports it on Apple platforms; any other
    /// TLS failure `secureConnectionFailed`.
    private static func handshakeCode(for error: BoringSSLError) -> Code {
        String(describing: error).contains("CERTIFICATE_VERIFY_FAILED")
            ? .serverCertificateUntrusted : .secureConnectionFailed
    }

    private static func code(for error: HTTPClientError) -> Code? {
        switch error {
        case .cancelled:
            return .cancelled
        case .connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded, .tlsHandshakeTimeout,
            .getConnectionFromPoolTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            return .timedOut
        case .remoteConnectionClosed:
            return .networkConnectionLost
        case .redirectLimitReached, .redirectCycleDetected:
            return .httpTooManyRedirects
        case .invalidURL, .emptyHost, .emptyScheme:
            return .badURL
        default:
            // unsupportedScheme(_:) carries the scheme, so it cannot be matched by value
            return String(describing: error).contains("unsupportedScheme") ? .unsupportedURL : nil
        }
    }
}
