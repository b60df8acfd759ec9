/// The default ``Transport/download(_:to:progress:completion:)``: a transfer started with the
/// transport's ``Transport/stream(_:onEvent:)`` whose body is written to a file chunk by chunk,
/// each chunk before the event callback returns.
///
/// Writing inside the callback is what keeps memory flat when the transport awaits its next
/// chunk only after the callback returns; nothing of the body is kept in memory.
///
/// A transfer that fails after the head, with fewer bytes than its `Content-Length`, completes
/// with ``DownloadError/incompleteBody(received:expected:)`` (see
/// ``DownloadOutcome/cutOff(by:received:offset:response:)``).
///
/// Exactly once: `completion` is called with the first of the stream's end and a write error
/// (which cancels the transfer); events after that are dropped, and the file is closed. The
/// task it returns stops the writes before it cancels the stream: once its `cancel()` returns,
/// nothing more is written to the file, and the stream's end still completes.
final class StreamedDownload: Sendable {
    private typealias Completion = @Sendable (Result<URLResponse, any Error>) -> Void

    private struct State {
        var response: URLResponse?
        var file: FileHandle?
        var bytes: Int64 = 0
        var completion: Completion?
        var task: (any TransportTask)?
        /// Set once a write failed: the transfer is cancelled as soon as it is attached.
        var cancelling = false
        /// Set by a cancellation: nothing more is written.
        var stopped = false
    }

    private let fileURL: URL
    private let progress: (@Sendable (TransferProgress) -> Void)?
    private let state: Locked<State>

    private init(
        fileURL: URL, progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<URLResponse, any Error>) -> Void
    ) {
        self.fileURL = fileURL
        self.progress = progress
        self.state = Locked(State(completion: completion))
    }

    /// Starts `request` on `transport`'s stream, writing the body to `fileURL`.
    static func start(
        _ request: URLRequest,
        on transport: some Transport,
        to fileURL: URL,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<URLResponse, any Error>) -> Void
    ) -> any TransportTask {
        let download = StreamedDownload(fileURL: fileURL, progress: progress, completion: completion)
        let task = transport.stream(request, onEvent: download.receive)
        download.attach(task)
        return StreamedDownloadTask(download: download, task: task)
    }

    /// Stops writing: closes the file, and drops the chunks still to come.
    fileprivate func stop() {
        state.withLock { state in
            state.stopped = true
            try? state.file?.close()
            state.file = nil
        }
    }

    /// Records the transfer, to cancel it on a write error; cancels it at once when one
    /// happened already.
    private func attach(_ task: any TransportTask) {
        let cancel = state.withLock { state -> Bool in
            state.task = task
            return state.cancelling
        }
        if cancel { task.cancel() }
    }

    /// Takes one event from the transport, which calls this in order, never concurrently.
    private func receive(_ event: TransportStreamEvent) {
        var report: TransferProgress?
        var cancelling: (any TransportTask)?
        let end = state.withLock { state -> (Completion, Result<URLResponse, any Error>)? in
            guard state.completion != nil else { return nil }
            switch event {
            case .response(let response):
                guard state.response == nil else { return nil }
                state.response = response
                guard !state.stopped else { return nil }
                do {
                    state.file = try Self.createFile(at: fileURL)
                } catch {
                    (state.cancelling, cancelling) = (true, state.task)
                    return finish(&state, .failure(error))
                }
                report = TransferProgress(
                    bytesReceived: 0, expectedBytesToReceive: TransferProgress.known(response.expectedContentLength))
                return nil
            case .data(let chunk):
                guard !state.stopped else { return nil }  // stopped: the chunks are not wanted
                guard let response = state.response else {
                    // body bytes before the head: a transport breaking the order
                    (state.cancelling, cancelling) = (true, state.task)
                    return finish(&state, .failure(URLError(.badServerResponse)))
                }
                guard let file = state.file else { return nil }
                do {
                    try file.write(contentsOf: chunk)
                } catch {
                    (state.cancelling, cancelling) = (true, state.task)
                    return finish(&state, .failure(DownloadError.fileWriteFailed(fileURL, underlying: error)))
                }
                state.bytes += Int64(chunk.count)
                report = TransferProgress(
                    bytesReceived: state.bytes,
                    expectedBytesToReceive: TransferProgress.known(response.expectedContentLength))
                return nil
            case .finished:
                guard !state.stopped else { return finish(&state, .failure(URLError(.cancelled))) }
                guard let response = state.response else {
                    return finish(&state, .failure(URLError(.badServerResponse)))
                }
                if let file = state.file {
                    state.file = nil
                    do {
                        try file.close()
                    } catch {
                        return finish(&state, .failure(DownloadError.fileWriteFailed(fileURL, underlying: error)))
                    }
                }
                return finish(&state, .success(response))
            case .failed(let error):
                if let response = state.response, !state.stopped,
                    let cutOff = DownloadOutcome.cutOff(by: error, received: state.bytes, offset: 0, response: response)
                {
                    return finish(&state, .failure(cutOff))
                }
                return finish(&state, .failure(error))
            }
        }
        cancelling?.cancel()
        if let report { progress?(report) }
        if let (completion, result) = end { completion(result) }
    }

    /// Ends the download under the lock: closes the file, drops the transfer and the completion,
    /// and returns the completion to call with `result` outside the lock.
    private func finish(
        _ state: inout State, _ result: Result<URLResponse, any Error>
    ) -> (Completion, Result<URLResponse, any Error>)? {
        try? state.file?.close()
        state.file = nil
        state.task = nil
        guard let completion = state.completion else { return nil }
        state.completion = nil
        return (completion, result)
    }

    /// Creates (or empties) the file at `url` and opens it for writing.
    private static func createFile(at url: URL) throws(DownloadError) -> FileHandle {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw .fileWriteFailed(url, underlying: CocoaError(.fileWriteUnknown))
        }
        do {
            return try FileHandle(forWritingTo: url)
        } catch {
            throw .fileWriteFailed(url, underlying: error)
        }
    }
}

/// The transfer of a ``StreamedDownload``: its cancellation stops the writes first.
private struct StreamedDownloadTask: TransportTask {
    let download: StreamedDownload
    let task: any TransportTask

    func cancel() {
        download.stop()
        task.cancel()
    }
}
