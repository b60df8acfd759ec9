#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One attempt of a download: takes the transport's stream events and writes an accepted
/// body, chunk by chunk, to a temporary file next to the destination; keeps a rejected body
/// (its first ``RequestPipeline/maximumErrorBodySize`` bytes) in memory for the error.
///
/// Nothing of the body is kept in memory: each chunk is written through a `FileHandle` where
/// the transport delivers it. The temporary file is removed whenever the attempt ends without
/// an accepted, complete body — transport error, a body shorter than its `Content-Length`, a
/// disk error, ``cancel()`` — and by ``discard()``; only ``moveFile(to:)`` hands it over.
///
/// Exactly once: the attempt ends with the first of the transport's end, a disk error and a
/// cancellation; anything the transport reports after that is dropped, and the waiting
/// ``outcome()`` is resumed once.
final class DownloadFile: Sendable {
    /// How an attempt ended.
    enum Outcome: Sendable {
        /// The request accepted the response and the whole body is in the temporary file.
        case accepted(URLResponse, bytes: Int64)
        /// The request's `intercept(urlResponse:)` threw `rejection`; `body` is the start of the
        /// response's body.
        case rejected(URLResponse, rejection: any Error, body: Data)
        /// The transfer failed, the body was cut off, or the file could not be written.
        case failed(any Error)
        /// ``cancel()`` was called.
        case cancelled

        var isAccepted: Bool {
            if case .accepted = self { return true }
            return false
        }
    }

    private struct State {
        var response: URLResponse?
        var rejection: (any Error)?
        var errorBody = Data()
        var file: FileHandle?
        var bytes: Int64 = 0
        var outcome: Outcome?
        var waiter: CheckedContinuation<Outcome, Never>?
        var task: (any TransportTask)?
    }

    /// The most bytes of a rejected response's body kept for its ``RequestError``: 1 MiB, as for
    /// a ``ResponseStream``.
    static let maximumErrorBodySize = 1 << 20

    /// Where the body is written until it is handed over.
    let temporaryURL: URL
    private let check: @Sendable (URLResponse) -> (any Error)?
    private let progress: ProgressHandler?
    private let state = Locked(State())

    /// - Parameters:
    ///   - destination: Where the file goes on success; the temporary file is made in its
    ///     directory, so that the final move is a rename on one file system.
    ///   - check: The request's `intercept(urlResponse:)`: the error that rejects a response.
    ///   - progress: Receives the bytes written so far, after each chunk.
    init(
        destination: URL,
        check: @escaping @Sendable (URLResponse) -> (any Error)?,
        progress: ProgressHandler?
    ) {
        self.temporaryURL = Self.temporaryURL(for: destination)
        self.check = check
        self.progress = progress
    }

    /// `.NAME.UUID.download` in the directory of `destination`: hidden, and unique per attempt.
    static func temporaryURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).download")
    }

    /// Records the transfer, to cancel it; cancels it at once when the attempt has ended.
    func attach(_ task: any TransportTask) {
        let ended = state.withLock { state -> Bool in
            guard state.outcome == nil else { return true }
            state.task = task
            return false
        }
        if ended { task.cancel() }
    }

    /// Takes one event from the transport; the transport calls this in order, never
    /// concurrently.
    func receive(_ event: TransportStreamEvent) {
        // the request's own code runs outside the lock
        var rejection: (any Error)?
        if case .response(let response) = event { rejection = check(response) }
        var report: TransferProgress?
        var cancelling: (any TransportTask)?
        let resume = state.withLock { state -> (CheckedContinuation<Outcome, Never>, Outcome)? in
            guard state.outcome == nil else { return nil }
            switch event {
            case .response(let response):
                guard state.response == nil else { return nil }
                state.response = response
                if let rejection {
                    state.rejection = rejection
                    return nil
                }
                do {
                    state.file = try createFile()
                } catch {
                    cancelling = state.task
                    return end(&state, .failed(error))
                }
                report = TransferProgress(
                    expectedBytesToReceive: TransferProgress.known(response.expectedContentLength))
                return nil
            case .data(let chunk):
                guard let response = state.response else { return nil }  // no head yet: a broken transport
                if state.rejection != nil {
                    let room = Self.maximumErrorBodySize - state.errorBody.count
                    state.errorBody.append(chunk.prefix(room))
                    guard chunk.count > room else { return nil }
                    cancelling = state.task
                    return end(&state, rejected(state, response))
                }
                guard let file = state.file else { return nil }
                do {
                    try file.write(contentsOf: chunk)
                } catch {
                    cancelling = state.task
                    return end(&state, .failed(DownloadError.fileWriteFailed(temporaryURL, underlying: error)))
                }
                state.bytes += Int64(chunk.count)
                report = TransferProgress(
                    bytesReceived: state.bytes,
                    expectedBytesToReceive: TransferProgress.known(response.expectedContentLength))
                return nil
            case .finished:
                guard let response = state.response else {
                    return end(&state, .failed(URLError(.badServerResponse)))
                }
                if state.rejection != nil { return end(&state, rejected(state, response)) }
                return end(&state, completed(&state, response))
            case .failed(let error):
                if let response = state.response, state.rejection != nil {
                    // whatever of the error body arrived: the status is what matters
                    return end(&state, rejected(state, response))
                }
                return end(&state, .failed(error))
            }
        }
        cancelling?.cancel()
        if let report, let progress { progress(report) }
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

    /// Ends the attempt with ``Outcome/cancelled`` unless it has ended already, cancels the
    /// transfer and removes the temporary file.
    func cancel() {
        let (task, resume) = state.withLock {
            state -> ((any TransportTask)?, (CheckedContinuation<Outcome, Never>, Outcome)?) in
            let task = state.task
            guard state.outcome == nil else { return (task, nil) }
            return (task, end(&state, .cancelled))
        }
        task?.cancel()
        if let (waiter, outcome) = resume { waiter.resume(returning: outcome) }
    }

    /// Removes the temporary file of an accepted body that is not handed over after all.
    func discard() {
        removeTemporaryFile()
    }

    /// Moves the complete body to `destination`, replacing a file there in one step
    /// (`rename(2)`); removes the temporary file when that fails.
    ///
    /// - Throws: ``DownloadError/cannotMoveToDestination(_:underlying:)``.
    func moveFile(to destination: URL) throws(DownloadError) {
        guard rename(temporaryURL.path, destination.path) == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            removeTemporaryFile()
            throw .cannotMoveToDestination(destination, underlying: POSIXError(code))
        }
    }

    // MARK: - Under the lock

    /// Records `outcome`; closes the file, and removes it unless the body was accepted whole.
    private func end(_ state: inout State, _ outcome: Outcome) -> (CheckedContinuation<Outcome, Never>, Outcome)? {
        state.outcome = outcome
        state.task = nil
        if let file = state.file {
            try? file.close()
            state.file = nil
        }
        if !outcome.isAccepted {
            removeTemporaryFile()
        }
        guard let waiter = state.waiter else { return nil }
        state.waiter = nil
        return (waiter, outcome)
    }

    private func rejected(_ state: State, _ response: URLResponse) -> Outcome {
        .rejected(response, rejection: state.rejection ?? UnacceptableStatusCode(statusCode: 0), body: state.errorBody)
    }

    /// The outcome of a body that ended normally: accepted when the file is closed and holds
    /// as many bytes as the `Content-Length` promised.
    private func completed(_ state: inout State, _ response: URLResponse) -> Outcome {
        if let file = state.file {
            state.file = nil
            do {
                try file.close()
            } catch {
                return .failed(DownloadError.fileWriteFailed(temporaryURL, underlying: error))
            }
        }
        let expected = response.expectedContentLength
        // A decoded body (Content-Encoding: gzip) has another length than the one announced.
        let encoded =
            (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding")
            .map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
        if expected >= 0, !encoded, state.bytes != expected {
            return .failed(DownloadError.incompleteBody(received: state.bytes, expected: expected))
        }
        return .accepted(response, bytes: state.bytes)
    }

    private func createFile() throws(DownloadError) -> FileHandle {
        guard FileManager.default.createFile(atPath: temporaryURL.path, contents: nil) else {
            throw .fileWriteFailed(temporaryURL, underlying: CocoaError(.fileWriteUnknown))
        }
        do {
            return try FileHandle(forWritingTo: temporaryURL)
        } catch {
            removeTemporaryFile()
            throw .fileWriteFailed(temporaryURL, underlying: error)
        }
    }

    private func removeTemporaryFile() {
        _ = unlink(temporaryURL.path)
    }
}
