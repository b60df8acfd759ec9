#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One attempt of a download: takes the transport's stream events and writes the body, chunk by
/// chunk, to a temporary file next to the destination.
///
/// Nothing of the body is kept in memory: each chunk is written through a `FileHandle` where
/// the transport delivers it. The temporary file is removed whenever the attempt ends without
/// a complete body — transport error, a body shorter than its `Content-Length`, a disk error,
/// ``cancel()`` — and by ``discard()``; only ``moveFile(to:)`` hands it over. A resumable
/// attempt keeps the file of a `2xx` body instead, once it exists, and describes it in
/// ``resumeData``. One that resumes a partial file writes after its bytes on a `206`, over them
/// on any other `2xx`, and any other status's body (an error's, which the request judges after
/// the chain) to a file of its own, the partial file untouched and still to resume from.
///
/// Exactly once: the attempt ends with the first of the transport's end, a disk error and a
/// cancellation; anything the transport reports after that is dropped, and the waiting
/// ``outcome()`` is resumed once.
final class DownloadFile: DownloadAttempt {
    private struct State: DownloadAttemptState {
        var response: URLResponse?
        /// Where this attempt's body goes: the partial file being resumed, or a new one.
        var fileURL: URL
        var file: FileHandle?
        /// The bytes of this attempt's body written so far.
        var bytes: Int64 = 0
        /// The bytes in the file before this attempt's body: those of the resumed download,
        /// 0 when none or when the server sent the whole body again.
        var offset: Int64 = 0
        /// Whether the temporary file exists (a resumed one does from the start).
        var fileExists = false
        /// The validator of the response the file's bytes came from.
        var validator: String?
        /// What a resumable attempt that did not succeed left behind.
        var resumeData: DownloadResumeData?
        var outcome: Outcome?
        var waiter: CheckedContinuation<Outcome, Never>?
        var task: (any TransportTask)?

        /// Whether the body is an error's (a status outside `200..<300`): never resumed from, and
        /// never written over the partial file.
        var isErrorBody: Bool {
            guard let http = response as? HTTPURLResponse else { return false }
            return !(200..<300).contains(http.statusCode)
        }
    }

    /// Where a new temporary file goes: next to the destination.
    private let destination: URL
    private let progress: (@Sendable (TransferProgress) -> Void)?
    /// Whether a failed attempt keeps its file and makes ``resumeData``.
    private let resumable: Bool
    /// The download this attempt resumes, if any.
    private let resuming: DownloadResumeData?
    private let state: Locked<State>

    /// - Parameters:
    ///   - destination: Where the file goes on success; the temporary file is made in its
    ///     directory, so that the final move is a rename on one file system.
    ///   - progress: Receives the bytes written so far, after each chunk.
    ///   - resumable: Whether an attempt that does not succeed keeps its file (see
    ///     ``resumeData``) rather than removing it.
    ///   - resuming: The download to continue: a `206` appends to its partial file, any other
    ///     `2xx` rewrites it from the start, any other status leaves it untouched.
    init(
        destination: URL,
        progress: (@Sendable (TransferProgress) -> Void)?,
        resumable: Bool = false,
        resuming: DownloadResumeData? = nil
    ) {
        self.destination = destination
        self.progress = progress
        self.resumable = resumable || resuming != nil
        self.resuming = resuming
        var state = State(fileURL: resuming?.partialFileURL ?? Self.temporaryURL(for: destination))
        state.offset = resuming?.bytesReceived ?? 0
        state.fileExists = resuming != nil
        state.validator = resuming?.validator
        self.state = Locked(state)
    }

    /// Checks that the partial file being resumed holds at least the bytes it should; removes
    /// it when it does not.
    ///
    /// - Throws: ``DownloadError/partialFileUnusable(_:bytesReceived:)``.
    func checkPartialFile() throws(DownloadError) {
        guard let resuming else { return }
        let url = resuming.partialFileURL
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        guard let size, size >= resuming.bytesReceived, resuming.bytesReceived >= 0 else {
            _ = unlink(url.path)
            throw .partialFileUnusable(url, bytesReceived: resuming.bytesReceived)
        }
    }

    /// What this attempt left to resume from: once it ended without a complete body, its
    /// partial file; once an error body is complete in a file of its own, the partial file it
    /// resumed, untouched. `nil` when it is not resumable or left no file.
    var resumeData: DownloadResumeData? {
        state.withLock { $0.resumeData }
    }

    var fileURL: URL {
        state.withLock { $0.fileURL }
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
        var unresumable: DownloadError?
        if case .response(let response) = event {
            unresumable = resumeFailure(response)
        }
        var report: TransferProgress?
        var cancelling: (any TransportTask)?
        let resume = state.withLock { state -> (CheckedContinuation<Outcome, Never>, Outcome)? in
            guard state.outcome == nil else { return nil }
            switch event {
            case .response(let response):
                guard state.response == nil else { return nil }
                state.response = response
                if let unresumable {
                    cancelling = state.task
                    return end(&state, .failed(unresumable), keep: false)
                }
                let appending = resuming != nil && (response as? HTTPURLResponse)?.statusCode == 206
                if !appending { state.offset = 0 }
                if state.isErrorBody, resuming != nil {
                    state.fileURL = Self.temporaryURL(for: destination)
                    state.fileExists = false
                }
                do {
                    state.file = try openFile(state.fileURL, keeping: state.offset, exists: state.fileExists)
                } catch {
                    cancelling = state.task
                    return end(&state, .failed(error))
                }
                state.fileExists = true
                state.validator = DownloadResumeData.validator(of: response) ?? (appending ? state.validator : nil)
                report = TransferProgress(
                    bytesReceived: state.offset,
                    expectedBytesToReceive: expected(state, response))
                return nil
            case .data(let chunk):
                guard let response = state.response else {
                    // body bytes before the head: a transport breaking the order
                    cancelling = state.task
                    return end(&state, .failed(URLError(.badServerResponse)))
                }
                guard let file = state.file else { return nil }
                do {
                    try file.write(contentsOf: chunk)
                } catch {
                    cancelling = state.task
                    return end(&state, .failed(DownloadError.fileWriteFailed(state.fileURL, underlying: error)))
                }
                state.bytes += Int64(chunk.count)
                report = TransferProgress(
                    bytesReceived: state.offset + state.bytes,
                    expectedBytesToReceive: expected(state, response))
                return nil
            case .finished:
                guard let response = state.response else {
                    return end(&state, .failed(URLError(.badServerResponse)))
                }
                return end(&state, completed(&state, response))
            case .failed(let error):
                if let response = state.response,
                    let cutOff = Outcome.cutOff(
                        by: error, received: state.bytes, offset: state.offset, response: response)
                {
                    return end(&state, .failed(cutOff))
                }
                return end(&state, .failed(error))
            }
        }
        cancelling?.cancel()
        if let report, let progress { progress(report) }
        if let (waiter, outcome) = resume { waiter.resume(returning: outcome) }
    }

    func outcome(orResume waiter: CheckedContinuation<Outcome, Never>) -> Outcome? {
        state.withLock { $0.outcome(orResume: waiter) }
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

    /// Removes the temporary file of a complete body that is not handed over after all; a
    /// partial file it did not touch stays, to resume from.
    func discard() {
        _ = unlink(fileURL.path)
    }

    /// Ends with the attempt given up: returns its ``resumeData``. The files were settled when
    /// the attempt ended (``end(_:_:keep:)``): kept to resume from, or removed.
    func abandon() -> DownloadResumeData? {
        resumeData
    }

    /// Moves the complete body to `destination`, replacing a file there in one step
    /// (`rename(2)`), and removes a partial file it did not touch (nothing is left to resume);
    /// removes the temporary file when the move fails.
    ///
    /// - Throws: ``DownloadError/cannotMoveToDestination(_:underlying:)``.
    func moveFile(to destination: URL) throws(DownloadError) {
        let (url, untouched) = state.withLock { ($0.fileURL, $0.resumeData?.partialFileURL) }
        try Self.move(url, to: destination)
        if let untouched { _ = unlink(untouched.path) }
    }

    /// Moves the file at `temporaryURL` to `destination`, replacing a file there in one step
    /// (`rename(2)`); removes it when that fails.
    ///
    /// - Throws: ``DownloadError/cannotMoveToDestination(_:underlying:)``.
    static func move(_ temporaryURL: URL, to destination: URL) throws(DownloadError) {
        guard rename(temporaryURL.path, destination.path) == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            _ = unlink(temporaryURL.path)
            throw .cannotMoveToDestination(destination, underlying: POSIXError(code))
        }
    }

    // MARK: - Under the lock

    /// Records `outcome`; closes the file, and removes it unless the body is complete or, for a
    /// resumable attempt, `keep` holds and there is a file of a `2xx` body: then it makes
    /// ``resumeData``. A partial file left untouched by an error body stays ``resumeData``.
    private func end(
        _ state: inout State, _ outcome: Outcome, keep: Bool = true
    ) -> (CheckedContinuation<Outcome, Never>, Outcome)? {
        state.outcome = outcome
        state.task = nil
        if let file = state.file {
            try? file.close()
            state.file = nil
        }
        let untouched = resuming.flatMap { $0.partialFileURL == state.fileURL ? nil : $0 }
        if outcome.isComplete {
            state.resumeData = untouched
        } else if resumable, keep, state.fileExists, !state.isErrorBody {
            state.resumeData = DownloadResumeData(
                partialFileURL: state.fileURL, bytesReceived: state.offset + state.bytes, validator: state.validator)
        } else {
            _ = unlink(state.fileURL.path)
            state.resumeData = untouched
        }
        guard let waiter = state.waiter else { return nil }
        state.waiter = nil
        return (waiter, outcome)
    }

    /// The outcome of a body that ended normally: complete when the file is closed and holds
    /// as many bytes as the `Content-Length` promised.
    private func completed(_ state: inout State, _ response: URLResponse) -> Outcome {
        if let file = state.file {
            state.file = nil
            do {
                try file.close()
            } catch {
                return .failed(DownloadError.fileWriteFailed(state.fileURL, underlying: error))
            }
        }
        if let mismatch = Outcome.lengthMismatch(received: state.bytes, offset: state.offset, response: response) {
            return .failed(mismatch)
        }
        return .complete(response, bytes: state.offset + state.bytes)
    }

    /// The whole body's expected size: what the file held before plus the `Content-Length`.
    private func expected(_ state: State, _ response: URLResponse) -> Int64? {
        TransferProgress.known(response.expectedContentLength).map { state.offset + $0 }
    }

    /// Why the response to a resumed request cannot continue the partial file: a `416`, or a
    /// `206` whose `Content-Range` does not start where the file ends. `nil` otherwise.
    private func resumeFailure(_ response: URLResponse) -> DownloadError? {
        guard let resuming, let http = response as? HTTPURLResponse else { return nil }
        switch http.statusCode {
        case 416:
            return .rangeNotSatisfiable(bytesReceived: resuming.bytesReceived)
        case 206:
            let range = http.value(forHTTPHeaderField: "Content-Range")
            guard let range, Self.start(ofContentRange: range) == resuming.bytesReceived else {
                return .contentRangeMismatch(expectedStart: resuming.bytesReceived, contentRange: range)
            }
            return nil
        default:
            return nil
        }
    }

    /// The first byte of a `Content-Range: bytes START-END/TOTAL`, or `nil`.
    static func start(ofContentRange value: String) -> Int64? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        return Int64(spec[..<dash])
    }

    /// Opens the file at `url` for writing after its first `offset` bytes: cut to that size
    /// when it exists (a resumed download), created empty otherwise.
    private func openFile(_ url: URL, keeping offset: Int64, exists: Bool) throws(DownloadError) -> FileHandle {
        guard exists else { return try createFile(url) }
        do {
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(offset))
            try handle.seek(toOffset: UInt64(offset))
            return handle
        } catch {
            throw .fileWriteFailed(url, underlying: error)
        }
    }

    private func createFile(_ url: URL) throws(DownloadError) -> FileHandle {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw .fileWriteFailed(url, underlying: CocoaError(.fileWriteUnknown))
        }
        do {
            return try FileHandle(forWritingTo: url)
        } catch {
            _ = unlink(url.path)
            throw .fileWriteFailed(url, underlying: error)
        }
    }
}
