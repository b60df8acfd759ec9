/// A response as it travels back through the chain of ``Interceptor``s: its head, and its
/// body when the call reads the body whole.
///
/// A call made with ``Request/response(using:options:progress:)`` or `perform` reads the body
/// whole before the chain returns: ``data`` holds it. A stream's body is still arriving when
/// the chain returns, and a download's is in its temporary file; neither is buffered for an
/// interceptor: ``data`` is `nil`, and ``onBodyEnd(_:)`` tells when the body has been received.
///
/// An interceptor may answer with a response of its own, a body in memory, without calling
/// `next` (a cache); every kind of call accepts it — a stream yields it as one chunk, a
/// download writes it to the destination.
///
/// ```swift
/// struct Canned: Interceptor {
///     func intercept(
///         _ urlRequest: URLRequest, context: RequestContext,
///         next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
///     ) async throws -> CallResponse {
///         let head = HTTPURLResponse(url: urlRequest.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
///         return CallResponse(urlResponse: head, data: Data("{}".utf8))
///     }
/// }
/// ```
public struct CallResponse: Sendable {
    /// The response head: status, headers, URL.
    public var urlResponse: URLResponse
    /// The whole body, when the call reads it whole; `nil` for a stream's or a download's body,
    /// which the call reads after the chain returns.
    public let data: Data?
    /// The body still arriving: a stream's chunks, or a download's file.
    let pending: PendingBody?

    /// A response with a body in memory.
    ///
    /// - Parameters:
    ///   - urlResponse: The response head.
    ///   - data: The whole body.
    public init(urlResponse: URLResponse, data: Data) {
        self.urlResponse = urlResponse
        self.data = data
        self.pending = nil
    }

    init(urlResponse: URLResponse, pending: PendingBody) {
        self.urlResponse = urlResponse
        self.data = nil
        self.pending = pending
    }

    /// The body of a rejected response, for its error: ``data``, or the first bytes of the body
    /// still pending (``PendingBody/errorBody()``).
    func errorBody() async -> Data {
        if let data { return data }
        return await pending?.errorBody() ?? Data()
    }

    /// Calls `handler` once, when the body has been received to its end or its transfer failed:
    /// at once for a body in memory or a download's complete file.
    ///
    /// ```swift
    /// callResponse.onBodyEnd { result in
    ///     if case .success(let bytes) = result { print("\(bytes) bytes") }
    /// }
    /// ```
    ///
    /// - Parameter handler: Receives the number of body bytes received, or the transfer's error
    ///   — for a stream that its reader stopped before the body ended, why: the ``RequestError``
    ///   of an element that did not decode, ``ResponseStreamError/bufferLimitExceeded(limit:)``,
    ///   or a cancellation. A body received whole has ended, whatever its reader makes of it.
    public func onBodyEnd(_ handler: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        if let pending {
            pending.tap.onEnd(handler)
        } else {
            handler(.success(data?.count ?? 0))
        }
    }
}
