/// The state behind ``TrafficControl``: calls in flight, in all and per host, the calls waiting
/// for each host in arrival order, each host's pause and, with a rate, each host's token bucket.
///
/// A call is admitted when its host has no one waiting before it, is not paused, both limits
/// have room and, with a rate, the host's bucket has a token. A host whose bucket is empty is
/// held like a paused one until its next token is there. Otherwise it waits in its host's queue, holding no slot, so a host that is
/// full or paused never holds up another. When a slot frees or a pause ends, the waiting call
/// admitted next is the one that arrived first among the heads of the hosts that can take one.
final class TrafficQueue: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Host {
        var inFlight = 0
        /// The calls waiting, oldest first.
        var waiting = FIFO<Waiter>()
        /// When the host's pause ends, on the clock.
        var pausedUntil: Duration?
        /// The tokens in the host's bucket when it was last filled (``filledAt``); `nil` while
        /// the bucket is full, or there is no rate.
        var tokens: Double?
        var filledAt: Duration = .zero
        /// The end of the latest pause a timer was started for.
        var timerEnd: Duration?

        var hasWaiters: Bool { !waiting.isEmpty }

        var isIdle: Bool { inFlight == 0 && !hasWaiters && pausedUntil == nil && timerEnd == nil && tokens == nil }
    }

    private struct State {
        var hosts: [String: Host] = [:]
        var inFlight = 0
        /// The calls waiting, all hosts together: a release with none pumps nothing.
        var waiting = 0
        var nextID: UInt64 = 0
        /// How many hosts known make the next new host ``sweep(_:)`` the idle ones.
        var sweepAt = 2 * TrafficQueue.idleHostsKept
    }

    /// A call cancelled while it waited.
    struct Cancelled: Error {}

    /// Calls in flight in all; `nil` for no limit.
    let total: Int?
    /// Calls in flight per host; `nil` for no limit.
    let perHost: Int?
    let rate: TrafficRate?
    let clock: TrafficClock
    private let state = Locked(State())
    /// How many hosts keep their entry while idle (an idle entry beyond them is removed when
    /// its last call ends): a call to a known host then looks its entry up and changes it in
    /// place, where a removed one is made anew on every call.
    static let idleHostsKept = 16

    init(total: Int?, perHost: Int?, rate: TrafficRate? = nil, clock: TrafficClock) {
        self.total = total
        self.perHost = perHost
        self.rate = rate
        self.clock = clock
    }

    /// Takes a slot for `host` if one is free now, without waiting: the path of every call when
    /// no limit is reached, with no suspension point.
    ///
    /// - Returns: Whether the call holds a slot; when not, ``acquire(_:)`` waits for one.
    func tryAcquire(_ host: String) -> Bool {
        state.withLock { admit(host, &$0) }
    }

    /// Takes a slot for `host`, waiting for it when needed.
    ///
    /// - Parameter onQueued: Called when the call has to wait, before it waits.
    /// - Returns: How long the call waited; `nil` when it took a slot at once.
    /// - Throws: ``Cancelled`` when the task is cancelled while waiting; the call holds no slot
    ///   then.
    func acquire(_ host: String, onQueued: () -> Void = {}) async throws(Cancelled) -> Duration? {
        let id = state.withLock { state -> UInt64? in
            if admit(host, &state) { return nil }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { return nil }
        onQueued()
        let start = clock.elapsed()
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let now = state.withLock { state -> Result<Void, any Error>? in
                        if Task.isCancelled { return .failure(CancellationError()) }
                        // the state may have changed since the first look
                        if admit(host, &state) { return .success(()) }
                        state.hosts[host, default: Host()].waiting.append(Waiter(id: id, continuation: continuation))
                        state.waiting += 1
                        return nil
                    }
                    if let now { continuation.resume(with: now) }
                }
            } onCancel: {
                self.cancel(id, host: host)
            }
        } catch {
            throw Cancelled()
        }
        return clock.elapsed() - start
    }

    /// Gives back the slot of a call to `host`, and admits the waiting calls that can go.
    func release(_ host: String) {
        let admitted = state.withLock { state -> [Waiter] in
            state.inFlight -= 1
            if let index = state.hosts.index(forKey: host) {
                state.hosts.values[index].inFlight -= 1
                if rate != nil { fill(&state.hosts.values[index], at: clock.elapsed()) }
                // An idle host's entry is kept for its next call while few hosts are known.
                if state.hosts.values[index].isIdle, state.hosts.count > Self.idleHostsKept {
                    state.hosts.remove(at: index)
                }
            }
            return pump(&state)
        }
        for waiter in admitted { waiter.continuation.resume() }
    }

    /// Holds every call to `host` until `length` has passed (or a longer pause already set
    /// ends); calls in flight go on.
    func pause(_ host: String, for length: Duration) {
        let end = clock.elapsed() + length
        state.withLock { state in
            var entry = state.hosts[host, default: Host()]
            hold(host, &entry, until: end)
            state.hosts[host] = entry
        }
    }

    /// Holds `entry`, the entry of `host`, until `end` (or a later end already set), with a
    /// timer that admits its waiting calls then.
    private func hold(_ host: String, _ entry: inout Host, until end: Duration) {
        entry.pausedUntil = max(entry.pausedUntil ?? end, end)
        // a timer that fires at or after the end serves it: the host is held until then anyway
        if let armed = entry.timerEnd, armed >= end { return }
        entry.timerEnd = end
        // of its own priority, not that of the call whose response paused the host; the queue is
        // not kept for the length of the pause
        Task.detached(priority: .high) { [clock, weak self] in
            try? await clock.sleep(end)
            self?.pauseTimerFired(host, end: end)
        }
    }

    /// Adds to `entry`'s bucket the tokens gained since it was last filled; marks it full
    /// (`nil`) when it is.
    private func fill(_ entry: inout Host, at now: Duration) {
        guard let rate, let tokens = entry.tokens else { return }
        let gained = (now - entry.filledAt) / .seconds(1) * rate.requestsPerSecond
        let filled = tokens + gained
        entry.filledAt = now
        entry.tokens = filled >= Double(rate.burst) ? nil : filled
    }

    /// Takes a token from the bucket of `host`; when it is empty, holds the host until the next
    /// token is there and returns `false`. Always `true` without a rate.
    private func takeToken(_ host: String, _ entry: inout Host) -> Bool {
        guard let rate else { return true }
        let now = clock.elapsed()
        fill(&entry, at: now)
        let tokens = entry.tokens ?? Double(rate.burst)
        // within a billionth of a token: the clock's arithmetic, not a missing token
        if tokens >= 1 - 1e-9 {
            entry.tokens = max(0, tokens - 1)
            entry.filledAt = now
            return true
        }
        // a rate of a few calls an age has its next token at most `SystemTime.longest` away
        let wait = Duration.seconds(min((1 - tokens) / rate.requestsPerSecond, SystemTime.longest))
        hold(host, &entry, until: now + max(wait, .nanoseconds(1)))
        return false
    }

    /// The number of calls waiting, all hosts together.
    var waitingCount: Int {
        state.withLock { $0.waiting }
    }

    /// The number of hosts with an entry: those with calls in flight, waiting or paused, up to
    /// ``idleHostsKept`` idle ones, and idle ones whose bucket was still refilling when their last
    /// call ended, until the next ``sweep(_:)`` (the count stays within twice the others, and
    /// at most `2 × idleHostsKept + 1` when they are few).
    var knownHostCount: Int {
        state.withLock { $0.hosts.count }
    }

    /// The number of calls in flight, all hosts together.
    var inFlightCount: Int {
        state.withLock { $0.inFlight }
    }

    /// The waiters the hosts' queues hold, those already admitted but not yet dropped included.
    var storedWaiterCount: Int {
        state.withLock { $0.hosts.values.reduce(0) { $0 + $1.waiting.storedCount } }
    }

    private func pauseTimerFired(_ host: String, end: Duration) {
        let admitted = state.withLock { state -> [Waiter] in
            if var entry = state.hosts[host] {
                if entry.timerEnd == end { entry.timerEnd = nil }
                // the timer of the pause's end ends it, whatever a coarse clock reads now
                if entry.pausedUntil == end { entry.pausedUntil = nil }
                state.hosts[host] = entry
            }
            let waiters = pump(&state)
            if state.hosts[host]?.isIdle == true { state.hosts[host] = nil }
            return waiters
        }
        for waiter in admitted { waiter.continuation.resume() }
    }

    private func cancel(_ id: UInt64, host: String) {
        let (cancelled, admitted) = state.withLock { state -> (Waiter?, [Waiter]) in
            // in place, through the index: no copy of the host's queue
            guard let index = state.hosts.index(forKey: host),
                let waiter = state.hosts.values[index].waiting.removeFirst(where: { $0.id == id })
            else { return (nil, []) }
            state.waiting -= 1
            return (waiter, pump(&state))
        }
        cancelled?.continuation.resume(throwing: CancellationError())
        for waiter in admitted { waiter.continuation.resume() }
    }

    /// Whether `host` can take a call now: nobody waiting before it, no pause (one that has
    /// passed is cleared), room in both limits. Takes the slot when it can.
    private func admit(_ host: String, _ state: inout State) -> Bool {
        if let total, state.inFlight >= total { return false }
        guard let index = state.hosts.index(forKey: host) else {
            var entry = Host(inFlight: 1)
            // a new host's bucket is full: the token is there
            _ = takeToken(host, &entry)
            state.hosts[host] = entry
            state.inFlight += 1
            if state.hosts.count > state.sweepAt { sweep(&state) }
            return true
        }
        // in place, through the index: one lookup, no copy of the entry's queue
        guard !state.hosts.values[index].hasWaiters, isOpen(&state.hosts.values[index]) else { return false }
        if let perHost, state.hosts.values[index].inFlight >= perHost { return false }
        guard takeToken(host, &state.hosts.values[index]) else { return false }
        state.hosts.values[index].inFlight += 1
        state.inFlight += 1
        return true
    }

    /// Removes the entries of idle hosts, their buckets refilled and their pauses passed since
    /// their last call ended (an entry is removed as its last call ends only when it is idle
    /// then); runs when the hosts known have doubled since the last sweep, so that they stay
    /// within twice those in use, at a cost spread over the calls that added them.
    private func sweep(_ state: inout State) {
        let now = clock.elapsed()
        state.hosts = state.hosts.filter { _, entry in
            var entry = entry
            fill(&entry, at: now)
            _ = isOpen(&entry, at: now)
            return !entry.isIdle
        }
        state.sweepAt = max(2 * state.hosts.count, 2 * Self.idleHostsKept)
    }

    /// Whether `entry` is not paused at `now` (the clock's time unless given); clears a pause
    /// that has passed.
    private func isOpen(_ entry: inout Host, at now: Duration? = nil) -> Bool {
        guard let end = entry.pausedUntil else { return true }
        guard (now ?? clock.elapsed()) >= end else { return false }
        entry.pausedUntil = nil
        return true
    }

    /// Admits waiting calls while some can go: each time the oldest head of a host that can
    /// take a call. Returns them, to resume outside the lock.
    private func pump(_ state: inout State) -> [Waiter] {
        var admitted: [Waiter] = []
        guard state.waiting > 0 else { return admitted }
        while total.map({ state.inFlight < $0 }) ?? true {
            var next: (host: String, id: UInt64)?
            for (name, var entry) in state.hosts where entry.hasWaiters {
                let wasPaused = entry.pausedUntil != nil
                guard isOpen(&entry) else { continue }
                if wasPaused { state.hosts[name] = entry }
                if let perHost, entry.inFlight >= perHost { continue }
                guard let id = entry.waiting.first?.id else { continue }
                if next.map({ id < $0.id }) ?? true { next = (name, id) }
            }
            // in place, through the index: a copy of the entry would copy its queue
            guard let next, let index = state.hosts.index(forKey: next.host) else { break }
            // held until its next token: look again among the other hosts
            guard takeToken(next.host, &state.hosts.values[index]) else { continue }
            // the host has a waiter: it was chosen for it
            guard let waiter = state.hosts.values[index].waiting.removeFirst() else { break }
            admitted.append(waiter)
            state.waiting -= 1
            state.hosts.values[index].inFlight += 1
            state.inFlight += 1
        }
        return admitted
    }
}
