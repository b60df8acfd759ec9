/// The exchanges with the server whose outcome ``HTTPCache`` writes back to a record — a
/// response stored, a stored response freshened by a `304` or a `HEAD` — watched for an
/// invalidation of that record (RFC 9111 §4.4): one that overlaps an exchange voids its
/// write-back.
///
/// A write-back reads the record, changes it and writes it whole, and a store cannot do that in
/// one step. An invalidation that removed the record between the read and the write was undone
/// by the write: the variants read came back, and the response the unsafe method changed was
/// served again. A response to a request sent before the invalidation ended may show the
/// resource as it was before the change, and is not stored either.
///
/// So an exchange takes a ``Ticket`` before its request is sent and gives it back when it ends.
/// An invalidation marks every ticket of its key that is out when it starts, and every ticket
/// taken until it ends; a write-back whose ticket is marked is not made, and one made while its
/// ticket got marked is removed again, by an invalidation of its own
/// (``HTTPCache/write(_:key:ticket:)``). Whatever the order in which the steps interleave, a
/// record written by an exchange that overlapped an invalidation does not outlive it: either
/// the invalidation's removal comes after the write, or the write comes after the removal, and
/// so after the mark, which the writer then sees; and an exchange that read the record while it
/// was back is out when that second removal starts, and is marked by it. The cost is a
/// write-back dropped now and then (a later miss), never a stale response kept.
final class RecordWrites: Sendable {
    /// An exchange's claim on writing back to the record of ``key``.
    struct Ticket: Sendable {
        let key: String
        fileprivate let id: UInt64
    }

    private struct State {
        var nextID: UInt64 = 0
        /// The tickets out for each key, each with whether an invalidation overtook it.
        var tickets: [String: [UInt64: Bool]] = [:]
        /// How many invalidations of each key are running.
        var invalidating: [String: Int] = [:]
    }

    private let state = Locked(State())

    /// A ticket for an exchange that may write back to the record of `key`: take it before the
    /// request is sent, and ``end(_:)`` it when the exchange is over.
    func begin(_ key: String) -> Ticket {
        state.withLock { state in
            state.nextID += 1
            state.tickets[key, default: [:]][state.nextID] = state.invalidating[key] != nil
            return Ticket(key: key, id: state.nextID)
        }
    }

    /// Gives `ticket` back.
    func end(_ ticket: Ticket) {
        state.withLock { state in
            state.tickets[ticket.key]?[ticket.id] = nil
            if state.tickets[ticket.key]?.isEmpty == true { state.tickets[ticket.key] = nil }
        }
    }

    /// Whether an invalidation of the ticket's key overlapped its exchange.
    func isOvertaken(_ ticket: Ticket) -> Bool {
        state.withLock { $0.tickets[ticket.key]?[ticket.id] ?? true }
    }

    /// Whether no ticket is out and no invalidation running: nothing kept.
    var isEmpty: Bool {
        state.withLock { $0.tickets.isEmpty && $0.invalidating.isEmpty }
    }

    /// Runs `remove`, the removal of the record of `key`, as an invalidation: the tickets of
    /// `key` out now, and those taken before `remove` returns, are overtaken.
    func invalidate(_ key: String, by remove: () async -> Void) async {
        state.withLock { state in
            state.invalidating[key, default: 0] += 1
            if let ids = state.tickets[key]?.keys {
                for id in ids { state.tickets[key]?[id] = true }
            }
        }
        await remove()
        state.withLock { state in
            let running = (state.invalidating[key] ?? 1) - 1
            state.invalidating[key] = running > 0 ? running : nil
        }
    }
}
