/// Bounds retries to a share of recent first attempts, per host: when a server fails for
/// everyone, retries add a fraction to the traffic instead of multiplying it by the number of
/// attempts.
///
/// The semantics of Finagle's and tower's `RetryBudget`. Every first attempt of a call to a
/// host deposits `ratio` of a retry; every retry withdraws one. A retry is allowed while the
/// host's balance over the last `window` seconds, plus a reserve of `minimumPerSecond` ×
/// `window` retries, covers it: so a host with little traffic can still retry a few calls,
/// and deposits and withdrawals older than the window no longer count, which refills the budget
/// once the failures stop.
///
/// The budget belongs to a ``RetryPolicy`` (``RetryPolicy/budget``): the retry link asks it
/// once it has decided to retry, before waiting. A refused retry is not made: the call ends at
/// once with the outcome of its last attempt — the status-code error or the transport's — and
/// its context says why (``RequestContext/retryRefusal`` is ``RetryRefusal/budgetExhausted``).
/// Only what the policy retries draws on the budget: idempotent methods (or the policy's own
/// rule), as without a budget.
///
/// A budget is shared state: one instance counts every call of every policy and session that
/// holds it. Times are read from the `clock` given to the initializer (`ContinuousClock` by
/// default).
///
/// ```swift
/// // retries may add 20 % to the traffic of each host, plus 10 per second
/// let api = Session(retryPolicy: RetryPolicy(budget: RetryBudget()))
/// do {
///     _ = try await UserRequest(id: 1).response(using: api)
/// } catch let failure where failure.context.retryRefusal == .budgetExhausted {
///     print("the server is failing for everyone: \(failure)")
/// } catch {
///     print(error)
/// }
/// ```
///
/// Settings that cannot be followed — a `ratio` outside `0...1000`, a negative or non-finite
/// `minimumPerSecond`, a `window` outside 1 millisecond to a day — fail every call of the
/// policy with ``BuildError/invalidRetryPolicy(_:)``, before anything is sent.
public final class RetryBudget: Sendable {
    /// The retries allowed per first attempt, from 0 to 1000: 0.2 allows one retry for every
    /// five first attempts.
    let ratio: Double
    /// The retries allowed per second whatever the traffic, at least 0.
    let minimumPerSecond: Double
    /// How long a first attempt or a retry counts, in seconds.
    let window: TimeInterval
    private let clock: TrafficClock
    /// Each host's ledger, and how many hosts make the next new one sweep out those with nothing
    /// left in the window.
    private let ledgers = Locked<(byHost: [String: Ledger], sweepAt: Int)>(([:], hostsBeforeSweep))
    /// How many hosts the budget knows before a new host sweeps out the ledgers with nothing in
    /// the window: then as many again as remain, so the sweeps cost little over the calls.
    static let hostsBeforeSweep = 64

    /// Creates a budget; with no argument, tower's and Finagle's defaults: 20 % of first
    /// attempts, plus 10 retries per second, over 10 seconds.
    ///
    /// ```swift
    /// let budget = RetryBudget(ratio: 0.1, minimumPerSecond: 1, window: 30)
    /// let policy = RetryPolicy(maxAttempts: 4, budget: budget)
    /// ```
    ///
    /// - Parameters:
    ///   - ratio: The retries allowed per first attempt, in `0...1000`; 0.2 by default.
    ///   - minimumPerSecond: The retries allowed per second whatever the traffic, at least 0;
    ///     10 by default.
    ///   - window: How long attempts count, in seconds, from 0.001 to 86 400; 10 by default.
    ///   - clock: Where the time is read; `ContinuousClock` by default.
    public init<C: Clock>(
        ratio: Double = 0.2, minimumPerSecond: Double = 10, window: TimeInterval = 10, clock: C = ContinuousClock()
    ) where C.Duration == Duration {
        self.ratio = ratio
        self.minimumPerSecond = minimumPerSecond
        self.window = window
        self.clock = TrafficClock(clock)
    }

    /// Counts a first attempt to `host`.
    func deposit(_ host: String) {
        let slot = currentSlot()
        ledgers.withLock { ledgers in
            if ledgers.byHost[host] == nil, ledgers.byHost.count >= ledgers.sweepAt {
                ledgers.byHost = ledgers.byHost.filter { $0.value.hasEntries(slot: slot) }
                ledgers.sweepAt = max(Self.hostsBeforeSweep, 2 * ledgers.byHost.count)
            }
            ledgers.byHost[host, default: Ledger()].add(deposit: ratio, withdrawal: 0, slot: slot)
        }
    }

    /// The hosts the budget keeps a ledger for: for tests.
    var hostCount: Int {
        ledgers.withLock { $0.byHost.count }
    }

    /// Takes one retry to `host` from the budget; `false`, taking nothing, when it is spent.
    func withdraw(_ host: String) -> Bool {
        let slot = currentSlot()
        let reserve = minimumPerSecond * window
        return ledgers.withLock { ledgers in
            var ledger = ledgers.byHost[host, default: Ledger()]
            guard ledger.balance(slot: slot) + reserve >= 1 else { return false }
            ledger.add(deposit: 0, withdrawal: 1, slot: slot)
            ledgers.byHost[host] = ledger
            return true
        }
    }

    /// The retries to `host` the budget allows now.
    func available(_ host: String) -> Double {
        let slot = currentSlot()
        let balance = ledgers.withLock { $0.byHost[host]?.balance(slot: slot) ?? 0 }
        return max(0, balance + minimumPerSecond * window)
    }

    /// Checks the settings, naming the first that cannot be followed.
    func validate() throws(BuildError) {
        guard (0...1000).contains(ratio) else {
            throw .invalidRetryPolicy("budget.ratio \(ratio) is not in 0...1000")
        }
        guard minimumPerSecond.isFinite, minimumPerSecond >= 0 else {
            throw .invalidRetryPolicy("budget.minimumPerSecond \(minimumPerSecond) is not a finite number ≥ 0")
        }
        guard (0.001...86_400).contains(window) else {
            throw .invalidRetryPolicy("budget.window \(window) is not a number of seconds in 0.001...86400")
        }
    }

    /// The slot of the window the present falls in: the window is kept as ``Ledger/slots``
    /// slots, each a tenth of it long.
    private func currentSlot() -> Int64 {
        let elapsed = clock.elapsed()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let slot = seconds / (window / Double(Ledger.slots))
        return slot.isFinite ? Int64(min(max(0, slot), 1e15)) : 0
    }
}

/// One host's deposits and withdrawals over the window, in ``slots`` slots: a slot older than
/// the window is emptied before it is used again.
private struct Ledger {
    static let slots = 10

    private var generation = [Int64](repeating: -1, count: slots)
    private var deposits = [Double](repeating: 0, count: slots)
    private var withdrawals = [Double](repeating: 0, count: slots)

    /// Whether a slot still in the window holds a deposit or a withdrawal.
    func hasEntries(slot: Int64) -> Bool {
        generation.contains { $0 > slot - Int64(Self.slots) }
    }

    /// Deposits minus withdrawals of the slots still in the window.
    func balance(slot: Int64) -> Double {
        var balance = 0.0
        for index in 0..<Self.slots where generation[index] > slot - Int64(Self.slots) {
            balance += deposits[index] - withdrawals[index]
        }
        return balance
    }

    mutating func add(deposit: Double, withdrawal: Double, slot: Int64) {
        let index = Int(slot % Int64(Self.slots))
        if generation[index] != slot {
            generation[index] = slot
            deposits[index] = 0
            withdrawals[index] = 0
        }
        deposits[index] += deposit
        withdrawals[index] += withdrawal
    }
}
