/// The delegate of a ``URLSessionTransport``'s `URLSession`: routes each task's callbacks to
/// the progress handler and completion it was registered with, keyed by task identifier.
///
/// A session-level delegate, because per-task delegates are not available on every platform
/// APIKit supports. Without a completion handler on the task, URLSession hands the body to
/// ``urlSession(_:dataTask:didReceive:)`` in pieces; the router collects them.
final class URLSessionTaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    private struct Transfer {
        let progress: ProgressHandler?
        let completion: @Sendable (Result<TransportResponse, any Error>) -> Void
        var data = Data()
        var state = TransferProgress()
    }

    private let transfers = Locked<[Int: Transfer]>([:])

    /// Registers `task`; call before resuming it.
    ///
    /// - Parameter expectedBytesToSend: The length of the body, which the task's own request
    ///   may not show (an upload from a file has none).
    func register(
        _ task: URLSessionTask,
        expectedBytesToSend: Int64?,
        progress: ProgressHandler?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) {
        var transfer = Transfer(progress: progress, completion: completion)
        transfer.state.expectedBytesToSend = expectedBytesToSend
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        report(task) { state in
            state.bytesSent = totalBytesSent
            // corelibs Foundation streams bodies chunked and reports -1: keep the known length
            state.expectedBytesToSend = TransferProgress.known(totalBytesExpectedToSend) ?? state.expectedBytesToSend
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let expected = TransferProgress.known(dataTask.response?.expectedContentLength ?? -1)
        let update = transfers.withLock { transfers -> (ProgressHandler, TransferProgress)? in
            guard var transfer = transfers.removeValue(forKey: dataTask.taskIdentifier) else { return nil }
            transfer.data.append(data)
            transfer.state.bytesReceived += Int64(data.count)
            transfer.state.expectedBytesToReceive = expected
            transfers[dataTask.taskIdentifier] = transfer
            return transfer.progress.map { ($0, transfer.state) }
        }
        if let (progress, state) = update { progress(state) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            transfer.completion(.failure(error))
        } else if let response = task.response {
            transfer.completion(.success(TransportResponse(data: transfer.data, urlResponse: response)))
        } else {
            transfer.completion(.failure(URLError(.badServerResponse)))
        }
    }

    /// Applies `change` to the task's progress and reports it, outside the lock.
    private func report(_ task: URLSessionTask, _ change: (inout TransferProgress) -> Void) {
        let update = transfers.withLock { transfers -> (ProgressHandler, TransferProgress)? in
            guard var transfer = transfers[task.taskIdentifier], let progress = transfer.progress else { return nil }
            change(&transfer.state)
            transfers[task.taskIdentifier] = transfer
            return (progress, transfer.state)
        }
        if let (progress, state) = update { progress(state) }
    }
}
