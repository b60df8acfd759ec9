import Foundation
import APIKit

/// A request whose configuration is a separate value, for tests that only look at the built `URLRequest`.
struct TestRequest<Configuration: RequestConfiguration & Sendable>: Request {
    var base = URL(string: "https://api.example.com")!
    var path = "items"
    var method: HTTPMethod = .get
    var configuration: Configuration
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

/// Builds the `URLRequest` for a configuration through `makeURLRequest()`.
func urlRequest<C: RequestConfiguration & Sendable>(
    _ configuration: C,
    method: HTTPMethod = .get,
    base: String = "https://api.example.com",
    path: String = "items"
) throws -> URLRequest {
    try TestRequest(base: URL(string: base)!, path: path, method: method, configuration: configuration).makeURLRequest()
}

/// The `BuildError` that building a configuration fails with, or `nil` when it builds.
func buildError<C: RequestConfiguration & Sendable>(_ configuration: C, method: HTTPMethod = .get) -> BuildError? {
    do {
        _ = try TestRequest(method: method, configuration: configuration).makeURLRequest()
        return nil
    } catch {
        guard case .buildFailed(let buildError, _) = error else { return nil }
        return buildError
    }
}
