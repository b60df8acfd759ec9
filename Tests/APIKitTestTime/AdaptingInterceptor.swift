public import APIKit
import Foundation

/// An ``Interceptor`` written as two hooks, the shape most of the tests' interceptors have:
/// ``adapt(_:for:)`` changes the request before `next`, ``inspect(_:data:for:)`` sees the
/// response after it (its body when the call reads it whole, else nothing).
///
/// ```swift
/// struct APIKey: AdaptingInterceptor {
///     func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
///         var request = urlRequest
///         request.setValue("k", forHTTPHeaderField: "X-Api-Key")
///         return request
///     }
/// }
/// ```
public protocol AdaptingInterceptor: Interceptor {
    /// Adapts or rejects the request before it goes further down the chain.
    func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest
    /// Inspects or rejects the response on its way back.
    func inspect(_ urlResponse: URLResponse, data: Data, for context: RequestContext) async throws
}

extension AdaptingInterceptor {
    /// Returns `urlRequest` unchanged.
    public func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
        urlRequest
    }

    /// Accepts every response.
    public func inspect(_ urlResponse: URLResponse, data: Data, for context: RequestContext) async throws {}

    /// `adapt`, `next`, then `inspect`.
    public func intercept(
        _ urlRequest: URLRequest,
        context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        let response = try await next(try await adapt(urlRequest, for: context))
        try await inspect(response.urlResponse, data: response.data ?? Data(), for: context)
        return response
    }
}
