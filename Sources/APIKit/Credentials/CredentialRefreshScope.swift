/// The credential refreshes the current task is part of, and which refreshes wait for which:
/// the requests an authenticator's `refresh()` makes pass a store's link untouched when waiting
/// for its credential would never end.
///
/// A refresh of one store may need another's (its token endpoint behind that store's
/// credential), whose refresh may call through the first store's session. A refresh started by
/// another's task is part of both (``refreshes``, inherited). A task of a refresh that waits for
/// another store's refresh records that wait while it waits (``wait(for:)``, then
/// ``stopWaiting(_:)``): a request of that other refresh then passes the waiting store's link.
/// The check and the record of a wait are made under one lock, so of two refreshes about to
/// wait for each other the second sees the first's wait and does not wait. Only refreshes still
/// running count: a task a refresh started that outlives it sends its requests as any other.
enum CredentialRefreshScope {
    /// One refresh of a store: the store, and the number of the refresh.
    struct Refresh: Sendable, Hashable {
        let store: ObjectIdentifier
        let number: UInt64
    }

    /// A wait recorded by ``wait(for:)``: ``waiters`` wait for ``refresh``.
    struct Waiting: Sendable {
        let refresh: Refresh?
        let waiters: Set<Refresh>
    }

    private struct Graph {
        var numbered: UInt64 = 0
        /// The number of each store's refresh under way.
        var running: [ObjectIdentifier: UInt64] = [:]
        /// For each refresh, the refreshes a task is waiting for it in, each with how many such
        /// tasks there are.
        var waits: [Refresh: [Refresh: Int]] = [:]

        /// Whether `refresh` is under way.
        func isLive(_ refresh: Refresh) -> Bool {
            running[refresh.store] == refresh.number
        }

        /// The refreshes of a task's scope (``CredentialRefreshScope/refreshes``) under way.
        func live(_ refreshes: [ObjectIdentifier: UInt64]) -> Set<Refresh> {
            Set(refreshes.lazy.map { Refresh(store: $0.key, number: $0.value) }.filter(isLive))
        }

        /// `live` and the refreshes under way that wait for them, through any number of others.
        func waitingFor(_ live: Set<Refresh>) -> Set<Refresh> {
            var found = live
            var unvisited = Array(live)
            while let refresh = unvisited.popLast() {
                for waiting in waits[refresh]?.keys ?? [:].keys where isLive(waiting) && found.insert(waiting).inserted
                {
                    unvisited.append(waiting)
                }
            }
            return found
        }
    }

    /// The refreshes the current task is part of: for each store, the number of its refresh.
    @TaskLocal static var refreshes: [ObjectIdentifier: UInt64] = [:]

    private static let graph = Locked(Graph())

    /// Numbers the refresh of `store` that starts now.
    static func started(_ store: ObjectIdentifier) -> Refresh {
        graph.withLock { graph in
            graph.numbered += 1
            graph.running[store] = graph.numbered
            return Refresh(store: store, number: graph.numbered)
        }
    }

    /// The refresh of `store` under way, if any: for tests.
    static func refresh(of store: ObjectIdentifier) -> Refresh? {
        graph.withLock { graph in graph.running[store].map { Refresh(store: store, number: $0) } }
    }

    /// Records that `refresh` ended: the tasks it started no longer pass its store's link, and
    /// the waits of its tasks count no more.
    static func ended(_ refresh: Refresh) {
        graph.withLock { graph in
            if graph.isLive(refresh) { graph.running[refresh.store] = nil }
        }
    }

    /// Whether a request of the current task passes `store`'s credential step as it is: the task
    /// is part of the store's refresh under way, or of one that the store's refresh waits for.
    static func passes(_ store: ObjectIdentifier) -> Bool {
        let refreshes = self.refreshes
        guard !refreshes.isEmpty else { return false }
        return graph.withLock { $0.waitingFor($0.live(refreshes)).contains { $0.store == store } }
    }

    /// Records that the current task's refreshes under way wait for `store`'s, until
    /// ``stopWaiting(_:)``; `nil`, recording nothing, when `store`'s refresh waits (through
    /// others) for one of them.
    static func wait(for store: ObjectIdentifier) -> Waiting? {
        let refreshes = self.refreshes
        guard !refreshes.isEmpty else { return Waiting(refresh: nil, waiters: []) }
        return graph.withLock { graph in
            let waiters = graph.live(refreshes)
            guard !graph.waitingFor(waiters).contains(where: { $0.store == store }) else { return nil }
            guard let number = graph.running[store] else { return Waiting(refresh: nil, waiters: []) }
            let refresh = Refresh(store: store, number: number)
            for waiter in waiters { graph.waits[refresh, default: [:]][waiter, default: 0] += 1 }
            return Waiting(refresh: refresh, waiters: waiters)
        }
    }

    /// Forgets a wait ``wait(for:)`` recorded, which ended.
    static func stopWaiting(_ waiting: Waiting) {
        guard let refresh = waiting.refresh, !waiting.waiters.isEmpty else { return }
        graph.withLock { graph in
            for waiter in waiting.waiters {
                let count = (graph.waits[refresh]?[waiter] ?? 1) - 1
                graph.waits[refresh]?[waiter] = count > 0 ? count : nil
            }
            if graph.waits[refresh]?.isEmpty == true { graph.waits[refresh] = nil }
        }
    }
}
