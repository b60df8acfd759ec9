#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One attempt of a download whose body the transport writes to a temporary file next to the
/// destination (``Transport/download(_:to:progress:completion:)``); checks what the transport
/// reports once the body is in the file.
///
/// When the transport completes: the request's `intercept(urlResponse:)` runs on the response;
/// a rejected response's error body (its first ``DownloadFile/maximumErrorBodySize`` bytes) is
/// read from the file and the file removed; an accepted body must be as long as its
/// `Content-Length` promised. The temporary file is removed whenever the attempt ends without an
/// accepted body, and by ``discard()``; only ``moveFile(to:)`` hands it over. Never resumable:
/// a resumable download keeps its partial file with ``DownloadFile``.
///
/// Exactly once: the attempt ends with the first of the transport's completion and
/// ``cancel()``, which cancels the transfer — after which the transport writes nothing more to
/// the file, as ``Transport/download(_:to:progress:completion:)`` asks — removes the file and
/// ends the attempt at once, without waiting for the transport's completion (a loaded machine
/// can take seconds to deliver it); the completion is then dropped, and the file removed again
/// should it exist.
final class TransportDownloadFile: DownloadAttempt {
    private struct State: DownloadAttemptState {
        var outcome: Outcome?
        var waiter: CheckedContinuation<Outcome, Never>?
        var task: (any TransportTask)?
    }

    /// Where the transport writes the body until it is handed over.
    let temporaryURL: URL
    private let check: @Sendable (URLResponse) -> (any Error)?
    private let state = Locked(State())

    /// - Parameters:
    ///   - destination: Where the file goes on success; the temporary file is named in its
    ///     directory, so that the final move is a rename on one file system.
    ///   - check: The request's `intercept(urlResponse:)`: the error that rejects a response.
    init(destination: URL, check: @escaping @Sendable (URLResponse) -> (any Error)?) {
        self.temporaryURL = DownloadFile.temporaryURL(for: destination)
        self.check = check
    }

    /// Never any: the attempt keeps no partial file.
    var resumeData: DownloadResumeData? { nil }

    /// Records the transfer, to cancel it; cancels it at once, and removes what it may have
    /// written, when the attempt was cancelled already.
    func attach(_ task: any TransportTask) {
        let cancelled = state.withLock { state -> Bool in
            guard let outcome = state.outcome else {
                state.task = task
                return false
            }
            if case .cancelled = outcome { return true }
            return false
        }
        if cancelled {
            task.cancel()
            removeTemporaryFile()
        }
    }

    /// Takes the transport's completion: decides the outcome, removing the file unless the body
    /// was accepted, and resumes ``outcome()``. Only the first call counts.
    func complete(_ result: Result<TransportDownload, any Error>) {
        // the request's own code and the file's reads run outside the lock
        let decided: Outcome
        switch result {
        case .failure(let error):
            decided = .failed(error)
        case .success(let download):
            decided = evaluate(download.urlResponse)
        }
        let resume = state.withLock { state -> (CheckedContinuation<Outcome, Never>, Outcome)? in
            guard state.outcome == nil else {
                // cancelled before: the transport wrote nothing after that, but remove anything
                // a broken one did
                if state.outcome?.isAccepted == false { removeTemporaryFile() }
                return nil
            }
            state.outcome = decided
            state.task = nil
            if !decided.isAccepted { removeTemporaryFile() }
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            return (waiter, decided)
        }
        if let (waiter, outcome) = resume { waiter.resume(returning: outcome) }
    }

    func outcome(orResume waiter: CheckedContinuation<Outcome, Never>) -> Outcome? {
        state.withLock { $0.outcome(orResume: waiter) }
    }

    /// Ends the attempt with ``DownloadOutcome/cancelled`` unless it has ended already: cancels
    /// the transfer, then removes the temporary file, then resumes ``outcome()``.
    func cancel() {
        let (ended, task, waiter) = state.withLock {
            state -> (Bool, (any TransportTask)?, CheckedContinuation<Outcome, Never>?) in
            guard state.outcome == nil else { return (false, nil, nil) }
            state.outcome = .cancelled
            defer { (state.task, state.waiter) = (nil, nil) }
            return (true, state.task, state.waiter)
        }
        guard ended else { return }
        task?.cancel()  // once it returns, the transport writes nothing more to the file
        removeTemporaryFile()
        waiter?.resume(returning: .cancelled)
    }

    func discard() {
        removeTemporaryFile()
    }

    func abandon() -> DownloadResumeData? {
        removeTemporaryFile()
        return nil
    }

    func moveFile(to destination: URL) throws(DownloadError) {
        try DownloadFile.move(temporaryURL, to: destination)
    }

    /// The outcome of a response whose body is in the file.
    private func evaluate(_ response: URLResponse) -> Outcome {
        if let rejection = check(response) {
            return .rejected(response, rejection: rejection, body: errorBody())
        }
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
        return .accepted(response, bytes: size)
    }

    /// The first ``DownloadFile/maximumErrorBodySize`` bytes of the file; empty when it cannot
    /// be read.
    private func errorBody() -> Data {
        guard let handle = try? FileHandle(forReadingFrom: temporaryURL) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: DownloadFile.maximumErrorBodySize)) ?? Data()
    }

    private func removeTemporaryFile() {
        _ = unlink(temporaryURL.path)
    }
}
