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

    /// The body bytes as they would be sent: `httpBody`, or everything `httpBodyStream` yields.
    /// Reading a stream uses it up; `nil` when the request has neither, or the stream fails.
    var sentBody: Data? {
        if let httpBody { return httpBody }
        guard let stream = httpBodyStream else { return nil }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0 { return nil }
            if count == 0 { break }
            data.append(contentsOf: buffer[..<count])
        }
        return data
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
    // Compare a second pair of builds: a stream body can be read only once, and the one returned
    // stays unread. A multipart boundary is random unless a test fixes it; the pair shares one.
    let fixed = MultipartBoundary.generator ?? { "APIKit-comparison" }
    let (compared, reference) = try MultipartBoundary.$generator.withValue(fixed) {
        (try request.makeURLRequest(), try request.encodedURLRequest(reading: .mirror))
    }
    expectIdentical(compared, reference, sourceLocation: sourceLocation)
    return built
}

/// Expects two requests to send the same bytes: URL, method, headers and body (a stream body
/// is read to compare, so neither request can be sent afterwards).
func expectIdentical(_ a: URLRequest, _ b: URLRequest, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
        a.url?.absoluteString == b.url?.absoluteString, "URL differs between readings", sourceLocation: sourceLocation)
    #expect(a.httpMethod == b.httpMethod, "method differs between readings", sourceLocation: sourceLocation)
    #expect(
        a.allHTTPHeaderFields == b.allHTTPHeaderFields,
        "headers differ between readings",
        sourceLocation: sourceLocation
    )
    #expect(
        (a.httpBodyStream == nil) == (b.httpBodyStream == nil),
        "one reading streams the body, the other does not",
        sourceLocation: sourceLocation
    )
    // Stream bodies are compared by the bytes they yield (which uses them up).
    #expect(a.sentBody == b.sentBody, "body differs between readings", sourceLocation: sourceLocation)
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
