import Foundation
import Testing

@testable import APIKit

/// A request whose configuration is a separate value, for tests that only look at the built `URLRequest`.
struct TestRequest<Configuration: RequestConfiguration & Sendable>: Request {
    var base = URL(string: "https://api.example.com")!
    var path = "items"
    var method: HTTPMethod = .get
    var configuration: Configuration
    var encodingStrategy: EncodingStrategy = .inherit
    var parser: RawDataParser { RawDataParser() }
}

extension URLRequest {
    /// The body as UTF-8 text, or `nil` without a body.
    var bodyText: String? {
        httpBody.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The query string exactly as it will be sent (still percent-encoded).
    var percentEncodedQuery: String? {
        url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedQuery }
    }

    /// A header value, looked up case-insensitively.
    func header(_ name: String) -> String? {
        allHTTPHeaderFields?.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// Builds the `URLRequest` for a configuration through `makeURLRequest()`, and checks that
/// reading the configuration with Mirror (the reference) gives a byte-identical request.
func urlRequest<C: RequestConfiguration & Sendable>(
    _ configuration: C,
    method: HTTPMethod = .get,
    base: String = "https://api.example.com",
    path: String = "items",
    strategy: EncodingStrategy = .inherit,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> URLRequest {
    let request = TestRequest(
        base: URL(string: base)!,
        path: path,
        method: method,
        configuration: configuration,
        encodingStrategy: strategy
    )
    let built = try request.makeURLRequest()
    let reference = try request.encodedURLRequest(reading: .mirror)
    expectIdentical(built, reference, sourceLocation: sourceLocation)
    return built
}

/// Expects two requests to send the same bytes: URL, method, headers and body.
func expectIdentical(_ a: URLRequest, _ b: URLRequest, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a.url?.absoluteString == b.url?.absoluteString, "URL differs between readings", sourceLocation: sourceLocation)
    #expect(a.httpMethod == b.httpMethod, "method differs between readings", sourceLocation: sourceLocation)
    #expect(
        a.allHTTPHeaderFields == b.allHTTPHeaderFields,
        "headers differ between readings",
        sourceLocation: sourceLocation
    )
    #expect(a.httpBody == b.httpBody, "body differs between readings", sourceLocation: sourceLocation)
}

/// The `BuildError` that building a configuration fails with, or `nil` when it builds; checks
/// that reading the configuration with Mirror fails the same way.
func buildError<C: RequestConfiguration & Sendable>(
    _ configuration: C,
    method: HTTPMethod = .get,
    path: String = "items",
    strategy: EncodingStrategy = .inherit,
    sourceLocation: SourceLocation = #_sourceLocation
) -> BuildError? {
    let request = TestRequest(path: path, method: method, configuration: configuration, encodingStrategy: strategy)
    var referenceError: BuildError?
    do {
        _ = try request.encodedURLRequest(reading: .mirror)
    } catch {
        referenceError = error
    }
    do {
        _ = try request.makeURLRequest()
        #expect(referenceError == nil, "only the Mirror reading failed", sourceLocation: sourceLocation)
        return nil
    } catch {
        guard case .buildFailed(let buildError, _) = error else { return nil }
        #expect(
            referenceError.map(String.init(describing:)) == String(describing: buildError),
            "the readings fail differently",
            sourceLocation: sourceLocation
        )
        return buildError
    }
}
