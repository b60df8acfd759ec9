#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One attempt of a download whose body the transport writes to a temporary file next to the
/// destination (``Transport/download(_:to:progress:completion:)``); checks what the transport
/// reports once the body is in the file.
///
/// When the transport completes, the body must be as long as its `Content-Length` promised;
/// the request's `intercept(urlResponse:)` judges the head after the chain, and a rejected
/// response's error body (its first ``PendingBody/maximumErrorBodySize`` bytes) is read back
/// with ``DownloadAttempt/errorBody()`` before the file is removed. The temporary file is
/// removed whenever the attempt ends without a complete body, and by ``discard()``; only
/// ``moveFile(to:)`` hands it over. Never resumable:
/// a resumable download keeps its partial file with ``DownloadFile``.
///
/// Exactly once: the attempt ends with the transport's completion. ``cancel()`` cancels the
/// transfer — after which the transport writes nothing more to the file, as
/// ``Transport/download(_:to:progress:completion:)`` asks — and the attempt then ends with
/// ``DownloadOutcome/cancelled`` when the transport completes, its file removed: a transport that
/// writes elsewhere while the body arrives (``URLSessionTransport`` on Linux, in the system's
/// temporary directory) has removed that file before it completes, so nothing of the download
/// is left anywhere once the cancelled download returns.
final class TransportDownloadFile: DownloadAttempt {
    private struct State: DownloadAttemptState {
        var outcome: Outcome?
        var waiter: CheckedContinuation<Outcome, Never>?
        var task: (any TransportTask)?
        /// Set by ``cancel()``: the attempt ends as cancelled when the transport completes.
        var cancelled = false
    }

    /// Where the transport writes the body until it is handed over.
    let temporaryURL: URL
    private let state = Locked(State())

    /// - Parameter destination: Where the file goes on success; the temporary file is named in
    ///   its directory, so that the final move is a rename on one file system.
    init(destination: URL) {
        self.temporaryURL = DownloadFile.temporaryURL(for: destination)
    }

    /// Never any: the attempt keeps no partial file.
    var resumeData: DownloadResumeData? { nil }

    var fileURL: URL { temporaryURL }

    /// Records the transfer, to cancel it; cancels it at once when the attempt was cancelled
    /// already.
    func attach(_ task: any TransportTask) {
        let cancelled = state.withLock { state -> Bool in
            guard state.outcome == nil else { return false }
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Takes the transport's completion: decides the outcome — cancelled, when ``cancel()`` came
    /// first — removing the file unless the body is complete, and resumes ``outcome()``. Only
    /// the first call counts.
    func complete(_ result: Result<URLResponse, any Error>) {
        // The request's own code and the file's reads run outside the lock, so `cancelled` is
        // read twice on purpose: here, to skip evaluating a response nobody will take, and
        // again under the lock below, where a cancel() that came in between still wins.
        let cancelledFirst = state.withLock { $0.cancelled }
        let decided: Outcome
        switch result {
        case _ where cancelledFirst:
            decided = .cancelled
        case .failure(let error):
            decided = .failed(error)
        case .success(let response):
            decided = evaluate(response)
        }
        let resume = state.withLock { state -> (CheckedContinuation<Outcome, Never>, Outcome)? in
            guard state.outcome == nil else { return nil }
            let outcome = state.cancelled ? .cancelled : decided
            state.outcome = outcome
            state.task = nil
            if !outcome.isComplete { removeTemporaryFile() }
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            return (waiter, outcome)
        }
        if let (waiter, outcome) = resume { waiter.resume(returning: outcome) }
    }

    func outcome(orResume waiter: CheckedContinuation<Outcome, Never>) -> Outcome? {
        state.withLock { $0.outcome(orResume: waiter) }
    }

    /// Cancels the transfer unless the attempt has ended already; the attempt ends with
    /// ``DownloadOutcome/cancelled`` when the transport completes (see ``complete(_:)``).
    func cancel() {
        let task = state.withLock { state -> (any TransportTask)? in
            guard state.outcome == nil, !state.cancelled else { return nil }
            state.cancelled = true
            return state.task
        }
        task?.cancel()  // once it returns, the transport writes nothing more to the file
    }

    func discard() {
        removeTemporaryFile()
    }

    /// `nil`: a transport's download is never resumable.
    func keepForResuming() -> DownloadResumeData? {
        nil
    }

    func moveFile(to destination: URL) throws(DownloadError) {
        try DownloadFile.move(temporaryURL, to: destination)
    }

    /// The outcome of a response whose body is in the file.
    private func evaluate(_ response: URLResponse) -> Outcome {
        let size: Int64
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: temporaryURL.path)
            size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        } catch {
            // the transport reported a body it did not write
            return .failed(DownloadError.fileWriteFailed(temporaryURL, underlying: error))
        }
        if let mismatch = Outcome.lengthMismatch(received: size, offset: 0, response: response) {
            return .failed(mismatch)
        }
        return .complete(response, bytes: size)
    }

    private func removeTemporaryFile() {
        _ = unlink(temporaryURL.path)
    }
}
