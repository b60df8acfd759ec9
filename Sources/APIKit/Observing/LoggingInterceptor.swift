/// A ``RequestLogger`` as a link of the chain: logs each request as it goes to the transport,
/// and its response when the body has been received (counted, not kept), or the failure.
///
/// The innermost link: it logs every attempt, as the session's interceptors left it.
struct LoggingInterceptor: Interceptor {
    let logger: RequestLogger
    /// Where the elapsed time comes from.
    let time: any TimeSource

    func intercept(
        _ urlRequest: URLRequest,
        context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        let logged = logger.begin(urlRequest, requestType: context.requestType, time: time)
        let response: CallResponse
        do {
            response = try await next(urlRequest)
        } catch {
            switch error {
            case .transportFailed(let failure, _): logged.end(.failure(failure))
            default: logged.end(.failure(URLError(.cancelled)))
            }
            throw error
        }
        let head = response.urlResponse
        response.onBodyEnd { result in
            switch result {
            case .success(let bytes): logged.end(streamed: head, bodySize: bytes)
            case .failure(let failure): logged.end(.failure(failure))
            }
        }
        return response
    }
}
