/// The delegate of a ``URLSessionTransport``'s `URLSession`: routes each task's callbacks to
/// the progress handler and completion it was registered with, keyed by task identifier.
///
/// A session-level delegate, because per-task delegates are not available on every platform
/// APIKit supports. Without a completion handler on the task, URLSession hands the body to
/// ``urlSession(_:dataTask:didReceive:)`` in pieces; the router collects them, or, for a
/// streamed transfer, forwards each piece as it comes (after the response, which it forwards
/// first), keeping nothing. Download tasks are routed to ``downloads``.
final class URLSessionTaskRouter: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, Sendable {
    private struct Transfer {
        let progress: (@Sendable (TransferProgress) -> Void)?
        let completion: @Sendable (Result<TransportResponse, any Error>) -> Void
        /// Set for a streamed transfer: receives the response and each chunk instead of `data`.
        var onEvent: (@Sendable (TransportStreamEvent) -> Void)?
        /// Whether `onEvent` has received the response.
        var responseSent = false
        var data = Data()
        var state = TransferProgress()
    }

    private let transfers = Locked<[Int: Transfer]>([:])
    /// The download tasks.
    let downloads = URLSessionDownloads()

    /// Registers `task`; call before resuming it.
    ///
    /// - Parameter expectedBytesToSend: The length of the body, which the task's own request
    ///   may not show (an upload from a file has none).
    func register(
        _ task: URLSessionTask,
        expectedBytesToSend: Int64?,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) {
        var transfer = Transfer(progress: progress, completion: completion)
        transfer.state.expectedBytesToSend = expectedBytesToSend
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    /// Registers `task` as a streamed transfer: `onEvent` receives the response and each chunk
    /// as it arrives; `completion` ends it, with an empty body. Call before resuming the task.
    func registerStream(
        _ task: URLSessionTask,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) {
        var transfer = Transfer(progress: nil, completion: completion)
        transfer.onEvent = onEvent
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let onEvent = claimResponse(of: dataTask) { onEvent(.response(response)) }
        completionHandler(.allow)
    }

    /// Declines to store the response of a request whose `cachePolicy` is
    /// `.reloadIgnoringLocalCacheData` in the session's `URLCache`: an ``HTTPCache`` marks so
    /// each request it passes on, and a response must not be kept by two caches (the other could
    /// answer later calls by rules of its own). Other responses are stored as the session would.
    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        completionHandler(Self.declinesCaching(dataTask.originalRequest) ? nil : proposedResponse)
    }

    /// Whether the response to `request` stays out of the session's `URLCache`.
    static func declinesCaching(_ request: URLRequest?) -> Bool {
        request?.cachePolicy == .reloadIgnoringLocalCacheData
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
        let streamed = transfers.withLock {
            transfers -> (onEvent: @Sendable (TransportStreamEvent) -> Void, sendResponse: Bool)? in
            guard var transfer = transfers[dataTask.taskIdentifier], let onEvent = transfer.onEvent else { return nil }
            let sendResponse = !transfer.responseSent
            transfer.responseSent = true
            transfers[dataTask.taskIdentifier] = transfer
            return (onEvent, sendResponse)
        }
        if let streamed {
            if streamed.sendResponse, let response = dataTask.response { streamed.onEvent(.response(response)) }
            streamed.onEvent(.data(data))
            return
        }
        let expected = TransferProgress.known(dataTask.response?.expectedContentLength ?? -1)
        let update = transfers.withLock { transfers -> (@Sendable (TransferProgress) -> Void, TransferProgress)? in
            guard var transfer = transfers.removeValue(forKey: dataTask.taskIdentifier) else { return nil }
            transfer.data.append(data)
            transfer.state.bytesReceived += Int64(data.count)
            transfer.state.expectedBytesToReceive = expected
            transfers[dataTask.taskIdentifier] = transfer
            return transfer.progress.map { ($0, transfer.state) }
        }
        if let (progress, state) = update { progress(state) }
    }

    func urlSession(
        _ session: URLSession,
        downloadTask: URLSessionDownloadTask,
        didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    ) {
        downloads.didWrite(
            downloadTask, totalBytesWritten: totalBytesWritten, totalBytesExpected: totalBytesExpectedToWrite)
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        downloads.didFinish(downloadTask, at: location)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if downloads.didComplete(task, error: error) { return }
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let onEvent = transfer.onEvent, !transfer.responseSent, error == nil, let response = task.response {
            onEvent(.response(response))
        }
        if let error {
            transfer.completion(.failure(URLError.cutOffBodyNamed(error)))
        } else if let response = task.response {
            transfer.completion(.success(TransportResponse(data: transfer.data, urlResponse: response)))
        } else {
            transfer.completion(.failure(URLError(.badServerResponse)))
        }
    }

    /// The streamed transfer's event handler, when `task` is one whose response has not been
    /// forwarded yet; marks the response forwarded.
    private func claimResponse(of task: URLSessionTask) -> (@Sendable (TransportStreamEvent) -> Void)? {
        transfers.withLock { transfers in
            guard var transfer = transfers[task.taskIdentifier], let onEvent = transfer.onEvent, !transfer.responseSent
            else { return nil }
            transfer.responseSent = true
            transfers[task.taskIdentifier] = transfer
            return onEvent
        }
    }

    /// Applies `change` to the task's progress and reports it, outside the lock.
    private func report(_ task: URLSessionTask, _ change: (inout TransferProgress) -> Void) {
        let update = transfers.withLock { transfers -> (@Sendable (TransferProgress) -> Void, TransferProgress)? in
            guard var transfer = transfers[task.taskIdentifier], let progress = transfer.progress else { return nil }
            change(&transfer.state)
            transfers[task.taskIdentifier] = transfer
            return (progress, transfer.state)
        }
        if let (progress, state) = update { progress(state) }
    }
}
