/// Cancels a `URLSession` task that uploads its body from a file, at a moment when corelibs
/// Foundation cannot crash on it.
///
/// corelibs (Linux, Windows) reads an upload's file with `DispatchIO` and pauses libcurl while a
/// read is pending; when the read completes it unpauses libcurl with a `try!`. If the task was
/// cancelled in between, libcurl has already let go of the transfer and refuses
/// (`CURLE_BAD_FUNCTION_ARGUMENT`): the `try!` ends the process. A plain
/// `uploadTask(with:fromFile:)` cancelled at random moments crashes this way within a few hundred
/// tries on this project's CI machines.
///
/// The crash needs libcurl to be waiting for file data. It is not once the whole body has been
/// handed over (the bytes sent reach the bytes expected), nor while the upload is held up by the
/// network (the read-ahead buffer is then full, and a completed read unpauses nothing). So the
/// cancellation waits, polling the task every 2 ms, until one of those holds — the body is sent,
/// or no byte has gone out for 2 s — or until the task ends by itself, then cancels it. On a
/// fast network that is a few milliseconds; the caller's request has reported its cancellation
/// already. On Apple platforms the task is cancelled at once.
///
/// The polls run on the real clock, not a session's `TimeSource`: what they watch is a real
/// libcurl transfer's progress, which only real time moves, and the transport has no session.
///
/// The task must have been resumed: cancelling a task while it starts is unsafe too.
struct FileUploadTask: TransportTask {
    let task: URLSessionTask

    func cancel() {
        FileUploadCancellation.cancel(task)
    }
}

enum FileUploadCancellation {
    /// How long an upload sends nothing before it counts as held up by the network.
    /// Long enough that a local file read, which libcurl may be waiting for, has surely ended
    /// (a loaded machine under the thread sanitizer delays reads by tens of milliseconds).
    static let stallLimit: DispatchTimeInterval = .seconds(2)
    private static let interval: DispatchTimeInterval = .milliseconds(2)
    private static let queue = DispatchQueue(label: "APIKit.FileUploadCancellation")

    /// Cancels `task` as soon as doing so is safe; see ``FileUploadTask``.
    static func cancel(_ task: URLSessionTask) {
        #if canImport(FoundationNetworking)
            queue.async { poll(task, lastSent: -1, stalledSince: .now()) }
        #else
            task.cancel()
        #endif
    }

    #if canImport(FoundationNetworking)
        /// Runs on `queue`: cancels `task` when it is safe, else looks again in 2 ms.
        private static func poll(_ task: URLSessionTask, lastSent: Int64, stalledSince: DispatchTime) {
            let sent = task.countOfBytesSent
            let expected = task.countOfBytesExpectedToSend
            let now = DispatchTime.now()
            let stalledSince = sent == lastSent ? stalledSince : now
            if task.state != .running || (expected > 0 && sent >= expected) || now >= stalledSince + stallLimit {
                task.cancel()
                return
            }
            queue.asyncAfter(deadline: now + interval) {
                poll(task, lastSent: sent, stalledSince: stalledSince)
            }
        }
    #endif
}
