/// A body of known length sent by corelibs `URLSession` from a temporary file: written there
/// first (the "spool"), then uploaded with `uploadTask(with:fromFile:)`, which sends its
/// `Content-Length`. A transport that can stream a body of known length needs none of this.
///
/// The temporary file (`APIKit-upload-<UUID>` in the spool directory, readable by its owner
/// only) is removed on every way out: the upload's end, whatever its outcome; a cancellation
/// while writing or sending, at once, while the transfer still winds down; a file of the body
/// that cannot be read or became shorter; a failure to write. A retry is a new transfer with a
/// file of its own.
///
/// The completion is called exactly once: `state` decides, under its lock, who finishes.
final class SpooledUpload: TransportTask, Sendable {
    private enum State {
        case writing(cancelled: Bool)
        /// The task is made but not yet resumed: a cancellation now waits for the resume, as
        /// cancelling a task while it starts is one of the moments corelibs crashes on.
        case starting(URLSessionTask, cancelled: Bool)
        case sending(URLSessionTask)
        case finished
    }

    private let request: URLRequest
    private let body: RequestBody
    private let file: URL
    private let makeTask: URLSessionUpload.MakeTask
    /// Where a failure before the task exists is reported: the session's delegate queue, where
    /// the task's own completion runs.
    private let callbackQueue: OperationQueue
    private let completion: @Sendable (Result<TransportResponse, any Error>) -> Void
    private let state = Locked(State.writing(cancelled: false))
    /// Whether ``cancel()`` was called: a transfer that then fails — for instance because its
    /// spool file is already gone — reports the cancellation, not that failure.
    private let cancelRequested = Locked(false)

    /// The name every spool file starts with.
    static let filePrefix = "APIKit-upload-"

    init(
        request: URLRequest,
        body: RequestBody,
        directory: URL,
        callbackQueue: OperationQueue,
        makeTask: @escaping URLSessionUpload.MakeTask,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) {
        self.request = request
        self.body = body
        self.file = directory.appendingPathComponent(Self.filePrefix + UUID().uuidString)
        self.makeTask = makeTask
        self.callbackQueue = callbackQueue
        self.completion = completion
    }

    /// Writes the spool file on a global queue, then starts the upload.
    func begin() {
        DispatchQueue.global().async { [self] in
            do {
                try write()
            } catch is CancellationError {
                failBeforeTask(URLError(.cancelled))
                return
            } catch {
                failBeforeTask(error)
                return
            }
            // Made under the lock, so that a cancellation finds either no task or this one.
            let task = state.withLock { state -> URLSessionTask? in
                guard case .writing(cancelled: false) = state else { return nil }
                let task = makeTask(request, file) { [self] result in
                    finish(result)
                }
                state = .starting(task, cancelled: false)
                return task
            }
            guard let task else {
                failBeforeTask(URLError(.cancelled))
                return
            }
            task.resume()
            let cancelled = state.withLock { state -> Bool in
                guard case .starting(let task, let cancelled) = state else { return false }
                state = .sending(task)
                return cancelled
            }
            if cancelled { FileUploadCancellation.cancel(task) }
        }
    }

    func cancel() {
        let (task, wasFinished) = state.withLock { state -> (URLSessionTask?, Bool) in
            switch state {
            case .writing:
                state = .writing(cancelled: true)
                return (nil, false)
            case .starting(let task, _):
                state = .starting(task, cancelled: true)
                return (nil, false)
            case .sending(let task):
                return (task, false)
            case .finished:
                return (nil, true)
            }
        }
        guard !wasFinished else { return }
        cancelRequested.withLock { $0 = true }
        // The file goes now, not when the transfer ends: a process that exits right after its
        // request reported the cancellation leaves nothing behind. A reader that has it open
        // (the writer, URLSession's upload) keeps reading the unlinked file until it closes it.
        try? FileManager.default.removeItem(at: file)
        // The task then ends with URLError(.cancelled) through its completion, which finishes.
        if let task { FileUploadCancellation.cancel(task) }
    }

    private var isCancelled: Bool {
        state.withLock { state in
            if case .writing(cancelled: true) = state { return true }
            return false
        }
    }

    /// Writes the whole body to the spool file, checking for a cancellation between chunks.
    private func write() throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw RequestBodyError.spoolFailed(reason: "could not create \(file.path)")
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forWritingTo: file)
        } catch {
            throw RequestBodyError.spoolFailed(reason: String(describing: error))
        }
        defer { try? handle.close() }
        try SpoolWriter.write(body, to: handle) { isCancelled }
    }

    /// Finishes with `error` on the callback queue: the upload ended before it had a task.
    private func failBeforeTask(_ error: any Error) {
        callbackQueue.addOperation { [self] in finish(.failure(error)) }
    }

    /// Removes the spool file and calls the completion, the first time only.
    private func finish(_ result: Result<TransportResponse, any Error>) {
        let first = state.withLock { state -> Bool in
            if case .finished = state { return false }
            state = .finished
            return true
        }
        guard first else { return }
        try? FileManager.default.removeItem(at: file)
        if case .failure = result, cancelRequested.withLock({ $0 }) {
            completion(.failure(URLError(.cancelled)))
        } else {
            completion(result)
        }
    }
}
