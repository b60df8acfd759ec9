extension StubTransport {
    /// Answers `request` from the stub, reporting synthetic progress just before the answer:
    /// the whole body sent, then the whole stubbed body received.
    ///
    /// The body size is that of `httpBody`, or the length of a streamed body when known (the
    /// stream is not read). A failure or a cancellation reports no progress.
    ///
    /// ```swift
    /// let session = Session(transport: StubTransport(.success(body: "ok")))
    /// _ = try await request.response(using: session, progress: { print($0.bytesReceived) })   // 2
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to answer.
    ///   - progress: Receives two steps (sent, then received) before `completion`.
    ///   - completion: Receives the stubbed response or error, once, on a global queue.
    /// - Returns: The stubbed transfer, to cancel it.
    public func send(
        _ request: URLRequest,
        progress: @escaping ProgressHandler,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        send(request, completion: TransferProgress.reportingEnd(of: request, to: progress, then: completion))
    }
}
