/// The events of one observed call: stamps each stage with the call's id, context and time,
/// keeps the call's ``CallMetrics``, hands the events to the session's observer one at a time
/// in order, and drops what is reported after the call's end.
///
/// Made only when the session has an observer or a ``RequestLogger`` (``make(for:context:)``): a
/// call nobody observes allocates nothing for its events, and every place that reports checks
/// for `nil`. The logger is a consumer of the events like the observer: it reads them (through a
/// ``CallLog``) before the observer does.
/// An event reported while the observer runs (by the observer itself, or by another thread of
/// the call) is queued and delivered by the thread already delivering, after the one in hand:
/// the observer never runs twice at once for one call, and never under a lock.
final class CallRecorder: Sendable {
    private struct State {
        /// The call as the next event names it: its URL and the attempt under way.
        var context: RequestContext
        var metrics = CallMetrics()
        var ended = false
        var attemptsStarted = 0
        /// When the last request was handed to the transport, on the session's clock.
        var lastSent: TimeInterval?
        /// When the attempt under way entered a queue it has not left.
        var queuedAt: TimeInterval?
        /// Events waiting for the thread that delivers, each with the size of the body a response
        /// head came with when it came whole (for the log).
        var pending: [Entry] = []
        var delivering = false
    }

    /// What waits to be delivered, in order: an event, or a failed transfer, which only the log
    /// reads (a link may still answer the call, whose outcome then names no failure).
    private enum Entry {
        case event(CallEvent, bodyInMemory: Int?)
        case transferFailed(any Error, at: Duration)
    }

    let id: Int
    private let observer: (@Sendable (CallEvent) -> Void)?
    private let log: CallLog?
    private let time: any TimeSource
    private let start: TimeInterval
    private let state: Locked<State>
    /// Numbers the observed calls of this process.
    private static let counter = Locked(0)

    private init(
        observer: (@Sendable (CallEvent) -> Void)?, log: CallLog?, time: any TimeSource, context: RequestContext
    ) {
        self.id = Self.counter.withLock { counter in
            counter += 1
            return counter
        }
        self.observer = observer
        self.log = log
        self.time = time
        self.start = time.uptime
        self.state = Locked(State(context: context))
    }

    /// Starts recording a call of `session`, reporting ``CallEvent/Stage/callStarted``; `nil`
    /// when the session has neither an observer nor a logger. `context` is made only then: it
    /// reads the request's `base`, often a URL parsed anew on each read.
    static func make(for session: Session, context: @autoclosure () -> RequestContext) -> CallRecorder? {
        let observer = session.onCallEvent
        let log = session.logger.map(CallLog.init(logger:))
        guard observer != nil || log != nil else { return nil }
        let recorder = CallRecorder(observer: observer, log: log, time: session.time, context: context())
        recorder.record { _, _ in .callStarted }
        return recorder
    }

    /// A stage a link reported through ``RequestContext/report(_:)``.
    func report(_ stage: CallEvent.Stage) {
        record { state, now in
            switch stage {
            case .queued: state.queuedAt = now
            case .dequeued(_, let waited):
                state.queuedAt = nil
                state.metrics.queueWait += waited
            default: break
            }
            return stage
        }
    }

    /// The chain begins attempt `number`, to `url`; reported once per attempt.
    func attemptStarted(_ number: Int, url: URL?) {
        record { state, _ in
            guard number > state.attemptsStarted else { return nil }
            state.attemptsStarted = number
            state.context = state.context.with(url: url).with(attempts: number)
            return .attemptStarted(number)
        }
    }

    /// The request goes to the transport.
    func requestSent(_ urlRequest: URLRequest) {
        record { state, now in
            state.metrics.attempts += 1
            state.metrics.bytesSent += max(0, urlRequest.knownBodyLength ?? 0)
            state.lastSent = now
            // the head of an earlier attempt's response is not the one the call keeps
            state.metrics.timeToResponseHead = nil
            return .requestSent(urlRequest)
        }
    }

    /// The transport returned `response`: its head, with its body when it came whole.
    func responseHead(_ response: CallResponse) {
        let bodyInMemory = response.pending == nil ? response.data?.count ?? 0 : nil
        record(bodyInMemory: bodyInMemory) { state, now in
            state.metrics.timeToResponseHead = .seconds(max(0, now - start))
            return .responseHead(
                response.urlResponse, timeToFirstByte: .seconds(max(0, now - (state.lastSent ?? now))))
        }
    }

    /// The transport failed the request sent last with `error`: the log's line for it names the
    /// transport's error (or the cancellation) now.
    func transferFailed(_ error: RequestError) {
        guard log != nil else { return }
        let failure: any Error =
            if case .transportFailed(let underlying, _) = error { underlying } else { URLError(.cancelled) }
        enqueue { _, now in .transferFailed(failure, at: .seconds(max(0, now - start))) }
    }

    /// Reports ``CallEvent/Stage/bodyEnded(bytes:)`` when the body of `response`, the one the
    /// call keeps, has been received.
    func observeBody(of response: CallResponse) {
        response.onBodyEnd { [self] result in
            if case .success(let bytes) = result { bodyEnded(bytes) }
        }
    }

    /// For a stream, whose call ends with its body: reports the body's end, then the call's.
    func observeStreamBody(of response: CallResponse, context: RequestContext) {
        response.onBodyEnd { [self] result in
            switch result {
            case .success(let bytes):
                bodyEnded(bytes)
                end(Result<Void, RequestError>.success(()))
            case .failure(let error as RequestError):
                // the reader's own outcome: an element that did not decode, a rejected head
                end(Result<Void, RequestError>.failure(error))
            case .failure(let error):
                let cancelled = error is CancellationError || (error as? URLError)?.code == .cancelled
                end(
                    Result<Void, RequestError>.failure(
                        cancelled ? .cancelled(context: context) : .transportFailed(error, context: context)))
            }
        }
    }

    private func bodyEnded(_ bytes: Int) {
        record { state, _ in
            state.metrics.bytesReceived = Int64(bytes)
            return .bodyEnded(bytes: bytes)
        }
    }

    /// Ends the call with its outcome: ``CallEvent/Stage/finished(_:)``,
    /// ``CallEvent/Stage/failed(_:_:)`` or ``CallEvent/Stage/cancelled(_:)``; later events are
    /// dropped.
    func end<Value>(_ outcome: Result<Value, RequestError>) {
        record { state, now in
            if let queuedAt = state.queuedAt {
                state.metrics.queueWait += .seconds(max(0, now - queuedAt))
                state.queuedAt = nil
            }
            state.metrics.duration = .seconds(max(0, now - start))
            state.ended = true
            switch outcome {
            case .success: return .finished(state.metrics)
            case .failure(.cancelled): return .cancelled(state.metrics)
            case .failure(let error): return .failed(error, state.metrics)
            }
        }
    }

    /// Makes the event `make` returns (none for `nil`) under the lock, unless the call has
    /// ended, and delivers it in order: to the log, then to the observer.
    private func record(bodyInMemory: Int? = nil, _ make: (inout State, _ now: TimeInterval) -> CallEvent.Stage?) {
        enqueue { state, now in
            make(&state, now).map { stage in
                .event(
                    CallEvent(callID: id, context: state.context, time: .seconds(max(0, now - start)), stage: stage),
                    bodyInMemory: bodyInMemory)
            }
        }
    }

    /// Queues the entry `make` returns (none for `nil`) under the lock, unless the call has
    /// ended, and delivers the queue in order, unless another thread is delivering it.
    private func enqueue(_ make: (inout State, _ now: TimeInterval) -> Entry?) {
        let delivers = state.withLock { state -> Bool in
            // read under the lock: two threads reporting for one call queue their events in the
            // order of their times
            guard !state.ended, let entry = make(&state, time.uptime) else { return false }
            state.pending.append(entry)
            guard !state.delivering else { return false }
            state.delivering = true
            return true
        }
        guard delivers else { return }
        while let entry = state.withLock({ state -> Entry? in
            guard !state.pending.isEmpty else {
                state.delivering = false
                return nil
            }
            return state.pending.removeFirst()
        }) {
            switch entry {
            case .event(let event, let bodyInMemory):
                log?.receive(event, bodyInMemory: bodyInMemory)
                observer?(event)
            case .transferFailed(let failure, let time):
                log?.logFailure(failure, at: time)
            }
        }
    }
}
