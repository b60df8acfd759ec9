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
/// Exactly once: ``cancel()`` cancels the transfer, and the attempt ends with
/// ``DownloadOutcome/cancelled`` when the transport's completion arrives — so that a transport
/// that finished writing just then cannot leave the file behind after the cancellation was
/// reported.
final class TransportDownloadFile: DownloadAttempt {
    private struct State {
        var outcome: Outcome?
        var waiter: CheckedContinuation<Outcome, Never>?
        var task: (any TransportTask)?
        var cancelled = false
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

    /// Records the transfer, to cancel it; cancels it at once when the attempt was cancelled.
    func attach(_ task: any TransportTask) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
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
            guard state.outcome == nil else { return nil }
            let outcome = state.cancelled ? .cancelled : decided
            state.outcome = outcome
            state.task = nil
            if !outcome.isAccepted { removeTemporaryFile() }
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            return (waiter, outcome)
        }
        if let (waiter, outcome) = resume { waiter.resume(returning: outcome) }
    }

    /// How the attempt ended; cancelling the calling task cancels the attempt.
    func outcome() async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let outcome = state.withLock { state -> Outcome? in
                    if let outcome = state.outcome { return outcome }
                    state.waiter = continuation
                    return nil
                }
                if let outcome { continuation.resume(returning: outcome) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Cancels the transfer, unless the attempt has ended; it ends with
    /// ``DownloadOutcome/cancelled`` when the transport completes.
    func cancel() {
        let task = state.withLock { state -> (any TransportTask)? in
            guard state.outcome == nil, !state.cancelled else { return nil }
            state.cancelled = true
            return state.task
        }
        task?.cancel()
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
