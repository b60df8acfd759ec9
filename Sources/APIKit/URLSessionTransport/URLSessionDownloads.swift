#if canImport(FoundationNetworking)
    import FoundationNetworking
    import Synchronization
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The download tasks of a ``URLSessionTransport``: routes each one's download-delegate
/// callbacks to the progress handler and completion it was registered with, and moves its file
/// to the place APIKit asked for.
///
/// What a `URLSessionDownloadTask` does with its file, on corelibs Foundation (Linux) as
/// measured and read in its source: the body goes to `<UUID>.tmp` in the system's temporary
/// directory, each chunk written inside libcurl's write callback — so a slow disk holds the
/// network back and nothing piles up in memory; `didWriteData` follows each chunk on the
/// delegate queue. A finished transfer — any status: a `404`'s body is in the file too — calls
/// `didFinishDownloadingTo` with the file, then `didCompleteWithError(nil)`; Apple's
/// `URLSession` deletes the file when `didFinishDownloadingTo` returns, corelibs never does, so
/// the file is moved there, to the caller's `fileURL`. A transfer that fails or is cancelled
/// only calls `didCompleteWithError`, and corelibs leaves its partial file behind: the object
/// that knows its location is taken from the task when it is resumed
/// (``CorelibsDownloadLocation``), and the file removed when the task completes.
/// Cancelling a download task has no crash like the upload one
/// (``FileUploadCancellation``): libcurl never waits for a file read there. ``cancel(_:)`` marks
/// the download cancelled before it cancels the task, and the body is moved only under the same
/// lock, so that nothing reaches `fileURL` once the cancellation has returned.
final class URLSessionDownloads: Sendable {
    private struct Download {
        let fileURL: URL
        let progress: (@Sendable (TransferProgress) -> Void)?
        let completion: @Sendable (Result<URLResponse, any Error>) -> Void
        /// What knows where corelibs writes the body, until `didFinishDownloadingTo` hands it over.
        var partial: CorelibsDownloadLocation?
        /// Whether the body reached `fileURL`.
        var moved = false
        /// Why the body could not be moved to `fileURL`.
        var moveError: (any Error)?
        /// Set by ``cancel(_:)``: the body is not moved to `fileURL` any more.
        var cancelled = false
        /// The bytes written so far, as last reported (by `didWriteData`, or by ``poll(_:reportingOn:)``).
        var written: Int64 = 0
        /// The body's length as last reported (its `Content-Length`), if known.
        var expected: Int64?
        /// The timer of a completion handler's task watched for progress (``watch(_:reportingOn:)``).
        var watcher: (any DispatchSourceTimer)?
    }

    /// How often the file of a completion handler's download task is looked at for progress.
    static let pollInterval = DispatchTimeInterval.milliseconds(10)

    private let downloads = Locked<[Int: Download]>([:])

    /// Registers `task`, whose body goes to `fileURL`; call before resuming it.
    func register(
        _ task: URLSessionTask,
        to fileURL: URL,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<URLResponse, any Error>) -> Void
    ) {
        let download = Download(fileURL: fileURL, progress: progress, completion: completion)
        downloads.withLock { $0[task.taskIdentifier] = download }
    }

    /// Learns where corelibs will write the body of `task`; call as soon as `resume()` returns.
    func didResume(_ task: URLSessionDownloadTask) {
        guard let partial = CorelibsDownloadLocation(resumed: task) else { return }
        downloads.withLock { $0[task.taskIdentifier]?.partial = partial }
    }

    /// Reports the progress of `task`, a completion handler's task that has just been resumed,
    /// from the length of the file corelibs writes: every ``pollInterval`` the file is looked at,
    /// and each time it has grown its length is reported on `queue` (the delegate queue, where
    /// the completion comes too) — see ``poll(_:reportingOn:)``.
    ///
    /// corelibs reports progress only to a delegate's download task, and for that one opens,
    /// seeks and closes the file and queues a `didWriteData` call for every chunk, which makes
    /// a large download markedly slower than a completion handler's task (`Benchmarks/README.md`,
    /// "Download 1 GB"); the file's length costs a `stat` a tick.
    func watch(_ task: URLSessionDownloadTask, reportingOn queue: OperationQueue) {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + Self.pollInterval, repeating: Self.pollInterval)
        timer.setEventHandler { [self] in poll(task, reportingOn: queue) }
        let watched = downloads.withLock { downloads -> Bool in
            guard let index = downloads.index(forKey: task.taskIdentifier) else { return false }
            downloads.values[index].watcher = timer
            return true
        }
        if !watched { timer.cancel() }  // the task has ended already: the handler never runs
        timer.resume()  // a source is activated before its release, cancelled or not
    }

    /// One look at the file of a watched task: when it is longer than what was reported, its
    /// length is reported on `queue`, unless the download has ended or been cancelled by then.
    ///
    /// The file is ``CorelibsDownloadLocation/file``, read only once the response head has
    /// arrived, which `countOfBytesExpectedToReceive` shows (0 until then; the length, or -1
    /// without one, after). corelibs names the file (a lazy property of the task's protocol
    /// object) when it makes the transfer's body drain, before the request is sent, on the
    /// task's serial work queue, and sets the expected count on that queue when the head has
    /// been read: what that count shows was written after the name, and the acquiring fence
    /// after reading it orders the name's read after it. (A completion handler's task gets no
    /// `response` before it ends, and no `countOfBytesReceived` or `progress` at all.)
    private func poll(_ task: URLSessionDownloadTask, reportingOn queue: OperationQueue) {
        let watched = downloads.withLock { downloads -> (partial: CorelibsDownloadLocation?, written: Int64)? in
            guard let download = downloads[task.taskIdentifier], !download.cancelled else { return nil }
            return (download.partial, download.written)
        }
        guard let watched, let partial = watched.partial else { return }
        let expected = task.countOfBytesExpectedToReceive
        guard expected != 0 else { return }  // no head yet: the body has not started
        #if canImport(FoundationNetworking)
            atomicMemoryFence(ordering: .acquiring)
        #endif
        guard let file = partial.file, let written = Self.length(of: file), written > watched.written else { return }
        queue.addOperation { [self] in report(task, written: written, expected: TransferProgress.known(expected)) }
    }

    /// Reports `written` bytes of a watched task, unless its download has ended or been
    /// cancelled, or as many were reported already. Runs on the delegate queue.
    private func report(_ task: URLSessionDownloadTask, written: Int64, expected: Int64?) {
        let progress = downloads.withLock { downloads -> (@Sendable (TransferProgress) -> Void)? in
            guard let index = downloads.index(forKey: task.taskIdentifier), !downloads.values[index].cancelled,
                written > downloads.values[index].written
            else { return nil }
            downloads.values[index].written = written
            downloads.values[index].expected = expected
            return downloads.values[index].progress
        }
        progress?(TransferProgress(bytesReceived: written, expectedBytesToReceive: expected))
    }

    /// Reports the bytes written so far.
    func didWrite(_ task: URLSessionDownloadTask, totalBytesWritten: Int64, totalBytesExpected: Int64) {
        let id = task.taskIdentifier
        let progress = downloads.withLock { downloads -> (@Sendable (TransferProgress) -> Void)? in
            // One lookup per chunk: the entry is updated in place through its index.
            guard let index = downloads.index(forKey: id) else { return nil }
            downloads.values[index].written = totalBytesWritten
            downloads.values[index].expected = totalBytesExpected >= 0 ? totalBytesExpected : nil
            return downloads.values[index].progress
        }
        progress?(
            TransferProgress(
                bytesReceived: totalBytesWritten, expectedBytesToReceive: TransferProgress.known(totalBytesExpected)))
    }

    /// Marks the download of `task` cancelled, then cancels the task: once this returns, nothing
    /// more is moved to its file.
    func cancel(_ task: URLSessionTask) {
        downloads.withLock { $0[task.taskIdentifier]?.cancelled = true }
        task.cancel()
    }

    /// Moves the finished body from `location` to the registered file, unless the download was
    /// cancelled: then it removes it.
    func didFinish(_ task: URLSessionDownloadTask, at location: URL) {
        guard let fileURL = downloads.withLock({ $0[task.taskIdentifier]?.fileURL }) else {
            _ = unlink(location.path)
            return
        }
        // A copy to another file system, which may take long, goes outside the lock to a
        // hidden sibling of `fileURL` (removed below whatever happens); the rename into place
        // is what the lock orders with a cancellation.
        var source = location
        var moveError: (any Error)?
        if Self.isOnOtherFileSystem(location, than: fileURL) {
            let sibling = fileURL.deletingLastPathComponent()
                .appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString).copy")
            do {
                try FileManager.default.copyItem(at: location, to: sibling)
                source = sibling
            } catch {
                moveError = DownloadError.fileWriteFailed(fileURL, underlying: error)
                _ = unlink(sibling.path)
            }
            _ = unlink(location.path)
        }
        downloads.withLock { downloads in
            guard var download = downloads[task.taskIdentifier] else { return }
            defer { downloads[task.taskIdentifier] = download }
            download.partial = nil
            if moveError == nil, !download.cancelled, rename(source.path, fileURL.path) != 0 {
                let code = POSIXErrorCode(rawValue: errno) ?? .EIO
                moveError = DownloadError.fileWriteFailed(fileURL, underlying: POSIXError(code))
            }
            download.moved = moveError == nil && !download.cancelled
            download.moveError = moveError
        }
        _ = unlink(source.path)  // gone already once renamed into place
    }

    /// Ends the download of `task`, made with a completion handler: what a delegate's task
    /// reports as `didFinishDownloadingTo` and `didCompleteWithError`, told at once. A watched
    /// task (one with a progress handler) reports the whole body as its last step first.
    ///
    /// Such a task never reports `didWriteData`, so after a failure the bytes written are read
    /// from the length of the partial file corelibs left, and the expected ones from the task,
    /// for ``DownloadOutcome/cutOff(by:received:offset:expected:)``.
    ///
    /// - Parameters:
    ///   - task: The task, ended.
    ///   - location: corelibs' file holding the whole body, when the transfer succeeded.
    ///   - error: What stopped the transfer, or `nil`.
    func didEnd(_ task: URLSessionDownloadTask, location: URL?, error: (any Error)?) {
        if let location {
            // a watched task's last step, the whole body, before its completion; no stat without one
            let watched = error == nil && downloads.withLock { $0[task.taskIdentifier]?.progress != nil }
            if watched, let written = Self.length(of: location) {
                let expected = TransferProgress.known(task.countOfBytesExpectedToReceive)
                report(task, written: written, expected: expected)
            }
            didFinish(task, at: location)
        }
        if error != nil {
            let partial = downloads.withLock { $0[task.taskIdentifier]?.partial?.file }
            let length = partial.flatMap(Self.length(of:))
            let expected = task.countOfBytesExpectedToReceive
            downloads.withLock { downloads in
                guard let index = downloads.index(forKey: task.taskIdentifier) else { return }
                downloads.values[index].written = length ?? 0
                downloads.values[index].expected = expected >= 0 ? expected : nil
            }
        }
        _ = didComplete(task, error: error)
    }

    /// Ends the download of `task`, if it is one: removes what corelibs left behind, and calls
    /// the completion. Returns whether `task` was a download.
    func didComplete(_ task: URLSessionTask, error: (any Error)?) -> Bool {
        guard let download = downloads.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return false }
        download.watcher?.cancel()
        if let file = download.partial?.file {
            _ = unlink(file.path)
        }
        if let error {
            // a body cut off after the head: one error, whatever libcurl called it (corelibs sets
            // no response on a task that failed: the length is the one didWriteData reported)
            let cutOff = DownloadOutcome.cutOff(
                by: error, received: download.written, offset: 0, expected: download.expected)
            download.completion(.failure(cutOff ?? error))
        } else if download.cancelled {
            download.completion(.failure(URLError(.cancelled)))
        } else if let moveError = download.moveError {
            download.completion(.failure(moveError))
        } else if download.moved, let response = task.response {
            download.completion(.success(response))
        } else {
            download.completion(.failure(URLError(.badServerResponse)))
        }
        return true
    }

    /// The length of the file at `url`, or `nil` when it cannot be read (gone, say).
    private static func length(of url: URL) -> Int64? {
        var status = stat()
        return stat(url.path, &status) == 0 ? Int64(status.st_size) : nil
    }

    /// Whether `location` and the directory of `fileURL` are on different file systems
    /// (corelibs writes to the system's temporary directory), so that a rename cannot move one
    /// to the other.
    private static func isOnOtherFileSystem(_ location: URL, than fileURL: URL) -> Bool {
        var source = stat()
        var target = stat()
        guard stat(location.path, &source) == 0, stat(fileURL.deletingLastPathComponent().path, &target) == 0 else {
            return false
        }
        return source.st_dev != target.st_dev
    }
}
