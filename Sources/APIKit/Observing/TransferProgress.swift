/// How far a request's transfer has come: bytes of the body sent and of the response
/// received, each with its expected total when known.
///
/// Passed to the `progress` closure of ``Request/perform(using:options:progress:completion:)`` and
/// ``Request/response(using:options:progress:)``, every time the transport reports a step: in
/// order, where the transport reports, never after the request's completion and not after it is
/// cancelled. The closure should return quickly.
///
/// ```swift
/// let echo = try await upload.response(using: session, progress: { progress in
///     if let total = progress.expectedBytesToSend { print("uploaded \(progress.bytesSent) of \(total) bytes") }
/// })
/// ```
public struct TransferProgress: Sendable, Hashable {
    /// Bytes of the request body sent so far.
    public var bytesSent: Int64
    /// The size of the request body; `nil` when unknown (a body stream without a length).
    public var expectedBytesToSend: Int64?
    /// Bytes of the response body received so far.
    public var bytesReceived: Int64
    /// The size of the response body (its `Content-Length`); `nil` when unknown.
    public var expectedBytesToReceive: Int64?

    /// Creates a progress report, as a transport does for each step of a transfer.
    ///
    /// - Parameters:
    ///   - bytesSent: Bytes of the request body sent so far.
    ///   - expectedBytesToSend: The size of the request body, or `nil` when unknown.
    ///   - bytesReceived: Bytes of the response body received so far.
    ///   - expectedBytesToReceive: The size of the response body, or `nil` when unknown.
    public init(
        bytesSent: Int64 = 0,
        expectedBytesToSend: Int64? = nil,
        bytesReceived: Int64 = 0,
        expectedBytesToReceive: Int64? = nil
    ) {
        self.bytesSent = bytesSent
        self.expectedBytesToSend = expectedBytesToSend
        self.bytesReceived = bytesReceived
        self.expectedBytesToReceive = expectedBytesToReceive
    }

    /// A total as URLSession reports it (`-1` or `0` for unknown), as an optional.
    static func known(_ total: Int64) -> Int64? {
        total > 0 ? total : nil
    }

    /// The completion of a transport that cannot watch a transfer run (``StubTransport``, a plain
    /// `URLSession`): on success it reports the transfer's two final steps to `progress`, then
    /// calls `completion`; a failure or a cancellation reports none. Without `progress`, it is
    /// `completion` itself.
    static func reportingEnd(
        of request: URLRequest,
        to progress: (@Sendable (TransferProgress) -> Void)?,
        then completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable (Result<TransportResponse, any Error>) -> Void {
        guard let progress else { return completion }
        return { result in
            if case .success(let response) = result { reportEnded(request, response: response, to: progress) }
            completion(result)
        }
    }

    /// Reports a transfer that has ended with `response` in two steps: the whole body of
    /// `request` sent (its known length), then the whole body of `response` received.
    private static func reportEnded(
        _ request: URLRequest, response: TransportResponse, to progress: @Sendable (TransferProgress) -> Void
    ) {
        let sent = request.knownBodyLength
        var state = TransferProgress(bytesSent: sent ?? 0, expectedBytesToSend: sent)
        progress(state)
        let received = Int64(response.data.count)
        state.bytesReceived = received
        state.expectedBytesToReceive = received
        progress(state)
    }
}
