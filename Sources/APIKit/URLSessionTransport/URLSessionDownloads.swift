#if canImport(FoundationNetworking)
    import FoundationNetworking
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
        let progress: ProgressHandler?
        let completion: @Sendable (Result<URLResponse, any Error>) -> Void
        /// What knows where corelibs writes the body, until `didFinishDownloadingTo` hands it over.
        var partial: CorelibsDownloadLocation?
        /// Whether the body reached `fileURL`.
        var moved = false
        /// Why the body could not be moved to `fileURL`.
        var moveError: (any Error)?
        /// Set by ``cancel(_:)``: the body is not moved to `fileURL` any more.
        var cancelled = false
        /// The bytes corelibs wrote so far, as `didWriteData` reported them.
        var written: Int64 = 0
        /// The body's length that `didWriteData` reported (its `Content-Length`), if known.
        var expected: Int64?
    }

    private let downloads = Locked<[Int: Download]>([:])

    /// Registers `task`, whose body goes to `fileURL`; call before resuming it.
    func register(
        _ task: URLSessionTask,
        to fileURL: URL,
        progress: ProgressHandler?,
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

    /// Reports the bytes written so far.
    func didWrite(_ task: URLSessionDownloadTask, totalBytesWritten: Int64, totalBytesExpected: Int64) {
        let id = task.taskIdentifier
        let progress = downloads.withLock { downloads -> ProgressHandler? in
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

    /// Ends the download of `task`, made with a completion handler (no progress was asked
    /// for): what a delegate's task reports as `didFinishDownloadingTo` and
    /// `didCompleteWithError`, told at once.
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
            didFinish(task, at: location)
        }
        if error != nil {
            let partial = downloads.withLock { $0[task.taskIdentifier]?.partial?.file }
            var written = stat()
            let length = partial.flatMap { stat($0.path, &written) == 0 ? Int64(written.st_size) : nil }
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
