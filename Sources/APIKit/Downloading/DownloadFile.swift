#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One attempt of a download: takes the transport's stream events and writes the body, chunk by
/// chunk, to a temporary file next to the destination.
///
/// Nothing of the body is kept in memory: each chunk is written to the file (``BodyFileWriter``)
/// where the transport delivers it. The temporary file is removed whenever the attempt ends without
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
        /// Writes this attempt's body to the partial file being resumed, or to a new one.
        var writer: BodyFileWriter
        /// Whether the temporary file exists (a resumed one does from the start).
        var fileExists = false
        /// The validator of the response the file's bytes came from.
        var validator: String?
        /// What a resumable attempt that did not succeed left behind.
        var resumeData: DownloadResumeData?
        /// The bytes a `206` continuing the partial file announced in its `Content-Range`.
        var rangeLength: Int64?
        var outcome: Outcome?
        var waiter: CheckedContinuation<Outcome, Never>?
        var task: (any TransportTask)?

        /// Whether the body is an error's (a status outside `200..<300`): never resumed from, and
        /// never written over the partial file.
        var isErrorBody: Bool {
            guard let http = writer.response as? HTTPURLResponse else { return false }
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
        let writer = BodyFileWriter(
            fileURL: resuming?.partialFileURL ?? Self.temporaryURL(for: destination),
            offset: resuming?.bytesReceived ?? 0)
        var state = State(writer: writer)
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
        state.withLock { $0.writer.fileURL }
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
        // a resumed attempt's Content-Range, read once: checked here, held to below
        var range: (first: Int64, last: Int64)?
        if case .response(let response) = event, resuming != nil {
            range = Self.contentRange(of: response)
            unresumable = resumeFailure(response, range: range)
        }
        var report: TransferProgress?
        var cancelling: (any TransportTask)?
        let resume = state.withLock { state -> (CheckedContinuation<Outcome, Never>, Outcome)? in
            guard state.outcome == nil else { return nil }
            switch event {
            case .response(let response):
                guard state.writer.take(response) else { return nil }
                if let unresumable {
                    cancelling = state.task
                    return end(&state, .failed(unresumable), keep: false)
                }
                // a 206 continues the partial file, any other 2xx rewrites it, any other
                // status's body goes to a file of its own
                let appending = resuming != nil && (response as? HTTPURLResponse)?.statusCode == 206
                if appending { state.rangeLength = range.map { $0.last - $0.first + 1 } }
                if state.isErrorBody, resuming != nil {
                    state.writer.fileURL = Self.temporaryURL(for: destination)
                    state.fileExists = false
                }
                do {
                    report = try state.writer.open(
                        keeping: state.fileExists ? (appending ? state.writer.offset : 0) : nil)
                } catch {
                    cancelling = state.task
                    return end(&state, .failed(error))
                }
                state.fileExists = true
                state.validator =
                    appending
                    ? DownloadResumeData.validator(continuing: state.validator, from: response)
                    : DownloadResumeData.validator(of: response)
                return nil
            case .data(let chunk):
                do {
                    report = try state.writer.write(chunk)
                } catch {
                    cancelling = state.task
                    return end(&state, .failed(error))
                }
                return nil
            case .finished:
                return end(&state, completed(&state))
            case .failed(let error):
                return end(&state, .failed(state.writer.failure(error)))
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

    func keepForResuming() -> DownloadResumeData? {
        state.withLock { state in
            let bytes = state.writer.offset + state.writer.bytes
            guard resumable, state.outcome?.isComplete == true, !state.isErrorBody, bytes > 0 else { return nil }
            return DownloadResumeData(
                partialFileURL: state.writer.fileURL, bytesReceived: bytes - 1, validator: state.validator)
        }
    }

    /// Moves the complete body to `destination`, replacing a file there in one step
    /// (`rename(2)`), and removes a partial file it did not touch (nothing is left to resume);
    /// removes the temporary file when the move fails.
    ///
    /// - Throws: ``DownloadError/cannotMoveToDestination(_:underlying:)``.
    func moveFile(to destination: URL) throws(DownloadError) {
        let (url, untouched) = state.withLock { ($0.writer.fileURL, $0.resumeData?.partialFileURL) }
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
        state.writer.close()
        let untouched = resuming.flatMap { $0.partialFileURL == state.writer.fileURL ? nil : $0 }
        if outcome.isComplete {
            state.resumeData = untouched
        } else if resumable, keep, state.fileExists, !state.isErrorBody {
            let writer = state.writer
            state.resumeData = DownloadResumeData(
                partialFileURL: writer.fileURL, bytesReceived: writer.offset + writer.bytes, validator: state.validator)
        } else {
            _ = unlink(state.writer.fileURL.path)
            state.resumeData = untouched
        }
        guard let waiter = state.waiter else { return nil }
        state.waiter = nil
        return (waiter, outcome)
    }

    /// The outcome of a body that ended normally: complete when the file is closed and holds
    /// as many bytes as the `Content-Length` promised.
    private func completed(_ state: inout State) -> Outcome {
        let response: URLResponse
        do {
            response = try state.writer.finish()
        } catch {
            return .failed(error)
        }
        let (bytes, offset) = (state.writer.bytes, state.writer.offset)
        if let mismatch = Outcome.lengthMismatch(received: bytes, offset: offset, response: response) {
            return .failed(mismatch)
        }
        // a 206 without a Content-Length (chunked, or ended by closing) is held to its range
        if let expected = state.rangeLength, bytes != expected, !Outcome.isDecoded(response) {
            return .failed(DownloadError.incompleteBody(received: offset + bytes, expected: offset + expected))
        }
        return .complete(response, bytes: offset + bytes)
    }

    /// Why the response to a resumed request cannot continue the partial file: a `416`, or a
    /// `206` whose `Content-Range` (`range`, when valid) does not start where the file ends. `nil`
    /// otherwise.
    private func resumeFailure(_ response: URLResponse, range: (first: Int64, last: Int64)?) -> DownloadError? {
        guard let resuming, let http = response as? HTTPURLResponse else { return nil }
        switch http.statusCode {
        case 416:
            return .rangeNotSatisfiable(bytesReceived: resuming.bytesReceived)
        case 206:
            guard range?.first == resuming.bytesReceived else {
                let range = http.value(forHTTPHeaderField: "Content-Range")
                return .contentRangeMismatch(expectedStart: resuming.bytesReceived, contentRange: range)
            }
            return nil
        default:
            return nil
        }
    }

    /// The range of `response`'s `Content-Range`, or `nil` without one or for an invalid one.
    private static func contentRange(of response: URLResponse) -> (first: Int64, last: Int64)? {
        (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Range").flatMap(contentRange(_:))
    }

    /// The first and last byte of a `Content-Range: bytes FIRST-LAST/COMPLETE` (`COMPLETE` may be
    /// `*`), or `nil` when it is not one or is invalid (RFC 9110 §14.4: `LAST` before `FIRST`, or
    /// not before `COMPLETE`), which must not be joined to the partial file.
    static func contentRange(_ value: String) -> (first: Int64, last: Int64)? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let bounds = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, bounds.count == 2, let first = digits(bounds[0]), let last = digits(bounds[1]),
            first <= last, last < .max
        else { return nil }
        if parts[1] == "*" { return (first, last) }
        guard let complete = digits(parts[1]), last < complete else { return nil }
        return (first, last)
    }

    /// The number `text` writes in ASCII digits only (no sign), when it fits an `Int64`.
    private static func digits(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int64(text)
    }
}
