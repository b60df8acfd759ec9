/// One attempt of a download, as the pipeline drives it: it ends with an ``Outcome``, and its
/// temporary file is then handed over, kept to resume from, or removed.
///
/// ``DownloadFile`` writes a streamed body itself and can keep a partial file to resume from;
/// ``TransportDownloadFile`` lets the transport write the file
/// (``Transport/download(_:to:progress:completion:)``).
protocol DownloadAttempt: Sendable {
    typealias Outcome = DownloadOutcome

    /// The outcome if the attempt has ended; else keeps `waiter`, to be resumed with the outcome
    /// once it is decided (by the end of the transfer or by ``cancel()``), and returns `nil`.
    /// The one piece of ``outcome()`` each attempt writes: its state is its own.
    func outcome(orResume waiter: CheckedContinuation<DownloadOutcome, Never>) -> DownloadOutcome?

    /// Ends the attempt with ``DownloadOutcome/cancelled`` unless it has ended already.
    func cancel()

    /// What is left to resume from once the attempt ended: its partial file, when it ended
    /// without a complete body; the partial file it resumed and did not touch, when its complete
    /// body (an error's) is in a file of its own. `nil` when it is not resumable or left no file.
    var resumeData: DownloadResumeData? { get }

    /// The file the body is written to until it is handed over.
    var fileURL: URL { get }

    /// Removes the temporary file of a complete body that is not handed over after all.
    func discard()

    /// Keeps the temporary file of a complete body to resume from, instead of handing it over:
    /// what a resumable download cancelled once its body was complete leaves. The resume data
    /// counts all but the last byte, which a resume fetches again, so that the server answers a
    /// `206` rather than a `416` for a range past the end. `nil` when the attempt is not
    /// resumable, or its body is an error's or empty; the caller then discards the file.
    func keepForResuming() -> DownloadResumeData?

    /// Moves the complete body to `destination`, replacing a file there in one step; removes
    /// the temporary file when that fails.
    ///
    /// - Throws: ``DownloadError/cannotMoveToDestination(_:underlying:)``.
    func moveFile(to destination: URL) throws(DownloadError)
}

extension DownloadAttempt {
    /// How the attempt ended; cancelling the calling task cancels the attempt.
    func outcome() async -> DownloadOutcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<DownloadOutcome, Never>) in
                if let outcome = outcome(orResume: continuation) { continuation.resume(returning: outcome) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The first ``PendingBody/maximumErrorBodySize`` bytes of the file: the body of a rejected
    /// response, for its error; empty when the file cannot be read.
    func errorBody() -> Data {
        guard let handle = try? FileHandle(forReadingFrom: fileURL) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: PendingBody.maximumErrorBodySize)) ?? Data()
    }
}

/// What every ``DownloadAttempt`` keeps under its lock for ``DownloadAttempt/outcome()``.
protocol DownloadAttemptState {
    /// How the attempt ended; `nil` while it runs.
    var outcome: DownloadOutcome? { get }
    /// The caller of ``DownloadAttempt/outcome()`` waiting for the end.
    var waiter: CheckedContinuation<DownloadOutcome, Never>? { get set }
}

extension DownloadAttemptState {
    /// ``DownloadAttempt/outcome(orResume:)`` under the attempt's lock.
    mutating func outcome(orResume waiter: CheckedContinuation<DownloadOutcome, Never>) -> DownloadOutcome? {
        if let outcome { return outcome }
        self.waiter = waiter
        return nil
    }
}

/// How an attempt of a download ended.
enum DownloadOutcome: Sendable {
    /// The whole body is in the temporary file, for the request's `intercept(urlResponse:)`
    /// to judge after the chain.
    case complete(URLResponse, bytes: Int64)
    /// The transfer failed, the body was cut off, or the file could not be written.
    case failed(any Error)
    /// The attempt was cancelled.
    case cancelled

    var isComplete: Bool {
        if case .complete = self { return true }
        return false
    }

    /// The error of a body that ended normally with `received` bytes after `offset` bytes
    /// already in the file, when it is shorter or longer than the `Content-Length` of
    /// `response` promised; `nil` when it is not, or when the body was decoded
    /// (`Content-Encoding: gzip` has another length than the one announced).
    static func lengthMismatch(received: Int64, offset: Int64, response: URLResponse) -> DownloadError? {
        guard let expected = announcedLength(of: response), received != expected else { return nil }
        return .incompleteBody(received: offset + received, expected: offset.addingSaturating(expected))
    }

    /// The error of a body that the transfer's failure cut off: `error` ended the transfer
    /// after the head of `response` and `received` bytes (after `offset` already in the file),
    /// fewer than its `Content-Length` promised — whether the server closed the connection
    /// early or it was reset. Each transport says it its own way (corelibs' `URLError(.unknown)`
    /// "transfer closed with N bytes remaining to read", AsyncHTTPClient's end of stream at an
    /// unexpected time, a reset's `.networkConnectionLost`); this is the one error a caller gets.
    ///
    /// `nil` — the error stays as it is — for a cancellation or a timeout (the caller's and the
    /// clock's doing, with errors of their own), for an error that is not a transport's
    /// `URLError`, and when the length is unknown or is not the body's (`Content-Encoding`).
    static func cutOff(by error: any Error, received: Int64, offset: Int64, response: URLResponse) -> DownloadError? {
        cutOff(by: error, received: received, offset: offset, expected: announcedLength(of: response))
    }

    /// The error of a body that the transfer's failure cut off, as above, for a transport that
    /// knows the length it expected (the `Content-Length`) but not the response.
    static func cutOff(by error: any Error, received: Int64, offset: Int64, expected: Int64?) -> DownloadError? {
        guard let code = RetryPolicy.urlErrorCode(of: error), code != .cancelled, code != .timedOut,
            let expected, received < expected
        else { return nil }
        return .incompleteBody(received: offset + received, expected: offset.addingSaturating(expected))
    }

    /// The `Content-Length` of `response` when it is the length of the body as received: `nil`
    /// when unknown, for a `204` or a `304` (whose `Content-Length`, if any, is another
    /// response's: RFC 9110 §8.6), or when a `Content-Encoding` other than `identity` was decoded.
    private static func announcedLength(of response: URLResponse) -> Int64? {
        let expected = response.expectedContentLength
        if let status = (response as? HTTPURLResponse)?.statusCode, status == 204 || status == 304 { return nil }
        return expected >= 0 && !isDecoded(response) ? expected : nil
    }

    /// Whether the body of `response` was decoded from a `Content-Encoding` other than
    /// `identity`: its length and ranges are not those of the bytes received.
    static func isDecoded(_ response: URLResponse) -> Bool {
        (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding")
            .map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
    }
}

extension Int64 {
    /// `self + other`, or `Int64.max` when the sum would pass it: a length a server announces
    /// may be anything up to `Int64.max`, added to the bytes already in a file.
    func addingSaturating(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
