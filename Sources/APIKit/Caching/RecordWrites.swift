/// The exchanges with the server whose outcome ``HTTPCache`` writes back to a record — a
/// response stored, a stored response freshened by a `304` or a `HEAD` — watched for an
/// invalidation of that record (RFC 9111 §4.4): one that overlaps an exchange voids its
/// write-back.
///
/// A write-back reads the record, changes it and writes it whole, and a store cannot do that in
/// one step: an invalidation that removed the record between the read and the write would be
/// undone by the write, the variants read coming back and the response the unsafe method
/// changed served again. A response to a request sent before the invalidation ended may show
/// the resource as it was before the change, and is not stored either.
///
/// So an exchange takes a ``Ticket`` before its request is sent and gives it back when it ends.
/// Invalidations are counted as they start; a ticket holds the count when it was taken and
/// whether an invalidation of its key was running then, and each key the count its last
/// invalidation started at, while a ticket taken before that is out. A ticket is overtaken when
/// an invalidation of its key was running as it was taken or started after it. A write-back
/// whose ticket is overtaken is not made, and one made while its ticket got overtaken is
/// removed again, by an invalidation of its own (``HTTPCache/write(_:key:ticket:)``). Whatever
/// the order in which the steps interleave, a record written by an exchange that overlapped an
/// invalidation does not outlive it: either the invalidation's removal comes after the write,
/// or the write comes after the removal, and so after the invalidation started, which the
/// writer then sees; and an exchange that read the record while it was back is out when that
/// second removal starts, and is overtaken by it. The cost is a write-back dropped now and then
/// (a later miss), never a stale response kept — though a call in the moment between such a
/// write and its removal may be answered from it. An exchange while no invalidation runs hashes
/// no key: it counts itself in and out. Each step counts on the store: a write or removal has
/// taken effect when its call returns (``HTTPCacheStore``).
final class RecordWrites: Sendable {
    /// An exchange's claim on writing back to the record of ``key``.
    struct Ticket: Sendable {
        let key: String
        /// How many invalidations had started when the ticket was taken.
        fileprivate let started: UInt64
        /// Whether an invalidation of ``key`` was running when the ticket was taken.
        fileprivate let overtakenAtStart: Bool
    }

    private struct State {
        /// How many invalidations have started.
        var started: UInt64 = 0
        /// The invalidations of each key running now.
        var running: [String: Int] = [:]
        /// For each key, the count ``started`` reached when its last invalidation began: kept
        /// while a ticket taken before it is out, for that ticket is overtaken.
        var lastStarted: [String: UInt64] = [:]
        /// How many tickets are out for each count of ``started`` they were taken at, oldest
        /// first; an entry ends when its tickets are given back and every older one has ended.
        var out: [(started: UInt64, tickets: Int)] = []
    }

    private let state = Locked(State())

    /// A ticket for an exchange that may write back to the record of `key`: take it before the
    /// request is sent, and ``end(_:)`` it when the exchange is over.
    func begin(_ key: String) -> Ticket {
        state.withLock { state in
            if let last = state.out.indices.last, state.out[last].started == state.started {
                state.out[last].tickets += 1
            } else {
                state.out.append((state.started, 1))
            }
            // the key looked up only while some invalidation runs
            let overtaken = !state.running.isEmpty && state.running[key] != nil
            return Ticket(key: key, started: state.started, overtakenAtStart: overtaken)
        }
    }

    /// Gives `ticket` back.
    func end(_ ticket: Ticket) {
        state.withLock { state in
            // most tickets out are recent ones, at the end
            guard let index = state.out.lastIndex(where: { $0.started == ticket.started }) else { return }
            state.out[index].tickets -= 1
            guard index == 0, state.out[0].tickets == 0 else { return }
            let ended = state.out.prefix { $0.tickets == 0 }.count
            state.out.removeFirst(ended)
            guard !state.lastStarted.isEmpty else { return }
            // a mark matters to the tickets taken before it, and none of those may be out any more
            if let oldest = state.out.first?.started {
                state.lastStarted = state.lastStarted.filter { $0.value > oldest }
            } else {
                state.lastStarted = [:]
            }
        }
    }

    /// Whether an invalidation of the ticket's key overlapped its exchange: it was running when
    /// the ticket was taken, or began after that.
    func isOvertaken(_ ticket: Ticket) -> Bool {
        ticket.overtakenAtStart || state.withLock { ($0.lastStarted[ticket.key] ?? 0) > ticket.started }
    }

    /// Whether no ticket is out and no invalidation running: nothing kept.
    var isEmpty: Bool {
        state.withLock { $0.out.isEmpty && $0.running.isEmpty && $0.lastStarted.isEmpty }
    }

    /// Runs `remove`, the removal of the record of `key`, as an invalidation: the tickets of
    /// `key` out now, and those taken before `remove` returns, are overtaken.
    func invalidate(_ key: String, by remove: () async -> Void) async {
        state.withLock { state in
            state.started += 1
            state.running[key, default: 0] += 1
            // a ticket taken from now on is overtaken only while this runs (`running`)
            if !state.out.isEmpty { state.lastStarted[key] = state.started }
        }
        await remove()
        state.withLock { state in
            let running = (state.running[key] ?? 1) - 1
            state.running[key] = running > 0 ? running : nil
        }
    }
}
