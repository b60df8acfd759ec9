/// The default ``Transport/download(_:to:progress:completion:)``: a transfer started with the
/// transport's ``Transport/stream(_:onEvent:)`` whose body is written to a file chunk by chunk
/// (``BodyFileWriter``), each chunk before the event callback returns.
///
/// Writing inside the callback is what keeps memory flat when the transport awaits its next
/// chunk only after the callback returns, or reads ahead of it by a bounded amount; nothing of
/// the body is kept in memory beyond that.
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
        var writer: BodyFileWriter
        var completion: Completion?
        var task: (any TransportTask)?
        /// Set once a write failed: the transfer is cancelled as soon as it is attached.
        var cancelling = false
        /// Set by a cancellation: nothing more is written.
        var stopped = false
    }

    private let progress: (@Sendable (TransferProgress) -> Void)?
    private let state: Locked<State>

    private init(
        fileURL: URL, progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<URLResponse, any Error>) -> Void
    ) {
        self.progress = progress
        self.state = Locked(State(writer: BodyFileWriter(fileURL: fileURL), completion: completion))
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
            state.writer.close()
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
                guard !state.stopped, state.writer.take(response) else { return nil }
                do {
                    report = try state.writer.open(keeping: nil)
                } catch {
                    (state.cancelling, cancelling) = (true, state.task)
                    return finish(&state, .failure(error))
                }
                return nil
            case .data(let chunk):
                guard !state.stopped else { return nil }  // stopped: the chunks are not wanted
                do {
                    report = try state.writer.write(chunk)
                } catch {
                    (state.cancelling, cancelling) = (true, state.task)
                    return finish(&state, .failure(error))
                }
                return nil
            case .finished:
                guard !state.stopped else { return finish(&state, .failure(URLError(.cancelled))) }
                return finish(&state, Result { try state.writer.finish() })
            case .failed(let error):
                return finish(&state, .failure(state.stopped ? error : state.writer.failure(error)))
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
        state.writer.close()
        state.task = nil
        guard let completion = state.completion else { return nil }
        state.completion = nil
        return (completion, result)
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
