/// One call's lines of a ``RequestLogger``, read from the call's events: each request as it is
/// handed to the transport (``CallEvent/Stage/requestSent(_:)``), and what came back for it.
///
/// What came back is logged when it is known:
/// - a body in memory (`response()`, `perform`, a rejected download's) with its head, whole;
/// - a streamed or downloaded body at ``CallEvent/Stage/bodyEnded(bytes:)``, with its byte count;
/// - a transport's failure where a retry is scheduled for it, or where the call fails with it;
/// - a response given up before its body was read (a stream's or a download's, for a retry
///   or a replay) at the next stage, without a size; a cancelled transfer as
///   `URLError(.cancelled)`.
///
/// The recorder hands over a call's events one at a time, in order, maybe from different threads:
/// the attempt in flight is kept under a lock for that.
final class CallLog: Sendable {
    /// The attempt whose outcome is not logged yet.
    private struct Attempt {
        let request: LoggedRequest
        /// When its request was sent, since the call started.
        let sentAt: Duration
        var head: URLResponse?
    }

    private let logger: RequestLogger
    private let attempt = Locked<Attempt?>(nil)

    init(logger: RequestLogger) {
        self.logger = logger
    }

    /// Logs what `event` tells. `bodyInMemory` is the size of the body a
    /// ``CallEvent/Stage/responseHead(_:timeToFirstByte:)`` came with, when it came whole.
    func receive(_ event: CallEvent, bodyInMemory: Int?) {
        switch event.stage {
        case .requestSent(let urlRequest):
            settle(at: event.time)
            let request = logger.logged(urlRequest, requestType: event.context.requestType)
            logger.log(request.line)
            attempt.withLock { $0 = Attempt(request: request, sentAt: event.time) }
        case .responseHead(let head, _):
            guard let bodyInMemory else {
                attempt.withLock { $0?.head = head }
                return
            }
            logResponse(head, bodySize: bodyInMemory, at: event.time)
        case .bodyEnded(let bytes):
            guard let head = attempt.withLock({ $0?.head }) else { return }
            logResponse(head, bodySize: bytes, at: event.time)
        case .retryScheduled(_, .error(let error)), .failed(.transportFailed(let error, _), _):
            logFailure(error, at: event.time)
        case .cancelled:
            logFailure(URLError(.cancelled), at: event.time)
        case .retryScheduled, .credentialRefresh, .finished, .failed:
            settle(at: event.time)
        case .callStarted, .attemptStarted, .queued, .dequeued, .retryRefused, .cacheOutcome:
            break
        }
    }

    /// Logs the outcome of an attempt that ended without saying how: its head without a size,
    /// or, without a head, a cancelled transfer.
    private func settle(at time: Duration) {
        guard let head = attempt.withLock({ $0?.head }) else {
            logFailure(URLError(.cancelled), at: time)
            return
        }
        logResponse(head, bodySize: nil, at: time)
    }

    private func logResponse(_ head: URLResponse, bodySize: Int?, at time: Duration) {
        guard let sent = take() else { return }
        logger.log(
            LoggedResponse.line(
                for: sent.request, response: head, bodySize: bodySize, elapsed: Self.seconds(time - sent.sentAt)))
    }

    /// Logs the attempt logged last as failed with `failure`, unless its line was written: also
    /// what the recorder calls when the transport failed it, before the call's outcome is known.
    func logFailure(_ failure: any Error, at time: Duration) {
        guard let sent = take() else { return }
        logger.log(
            LoggedResponse.line(for: sent.request, failure: failure, elapsed: Self.seconds(time - sent.sentAt)))
    }

    /// The attempt in flight, now logged: `nil` when none is.
    private func take() -> Attempt? {
        attempt.withLock { attempt in
            defer { attempt = nil }
            return attempt
        }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        max(0, Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18)
    }
}
