/// The pipeline's road for the common `response()` call, run in the caller's task: sent once,
/// no interceptors, no progress, no resource timeout, no completion queue.
///
/// The stages are those of the completion road — ``prepare()``, the transport, the response
/// stages — but the transport's `async` ``Transport/send(_:)`` is awaited where the caller
/// awaits, and the response is parsed in the caller's task when it returns: no continuation
/// of the pipeline's own, and no thread between the transport and the caller (over
/// `AsyncHTTPClientTransport`, the event loop resumes the caller directly).
///
/// Cancelling the calling task cancels the transfer through the transport's `send(_:)`; the
/// ``RequestHandle`` still decides, once, whether the outcome is the response or the
/// cancellation, as on the completion road.
extension RequestPipeline {
    /// Whether a `response()` call of `request` through `session` takes this road.
    ///
    /// The checks read fields only: the retry policy is neither copied nor validated (as
    /// ``attemptPolicy()`` does for a request sent once).
    static func runsInCallersTask(
        _ request: R,
        session: Session,
        options: RequestOptions?,
        progress: ProgressHandler?
    ) -> Bool {
        progress == nil && session.interceptors.isEmpty && session.completionQueue == nil
            && session.credentialStore == nil && session.retryPolicy.maxAttempts == 1
            && request.retryPolicy == nil
            && (options?.resourceTimeout ?? request.options.resourceTimeout ?? session.options.resourceTimeout) == nil
    }

    /// Runs the request in the calling task and returns its outcome, exactly once.
    func outcomeInCallersTask() async -> Result<R.Response, RequestError> {
        let handle = RequestHandle(onCancelAt: { _ in })
        return await withTaskCancellationHandler {
            await run(handle)
        } onCancel: {
            handle.cancel()
        }
    }

    private func run(_ handle: RequestHandle) async -> Result<R.Response, RequestError> {
        // cancelled before it started: nothing is built or sent
        guard !handle.isFinished else { return .failure(.cancelled(context: request.initialContext)) }
        let urlRequest: URLRequest
        do {
            urlRequest = try prepare()
        } catch {
            return .failure(decorated(error))
        }
        let url = urlRequest.url
        guard handle.note(url: url) else {
            return .failure(.cancelled(context: request.initialContext.with(url: url)))
        }
        let logged = session.logger?.begin(
            urlRequest, requestType: request.initialContext.requestType, time: session.time)
        let result: Result<TransportResponse, any Error>
        do {
            result = .success(try await session.transport.send(urlRequest))
        } catch {
            result = .failure(error)
        }
        logged?.end(result)
        guard handle.claimCompletion() else {
            return .failure(.cancelled(context: request.initialContext.with(url: url)))
        }
        return request.outcome(result, context: request.initialContext.with(url: url)).mapError(decorated)
    }
}
