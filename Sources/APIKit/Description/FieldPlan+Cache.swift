extension FieldPlan {
    /// Plans by type; the inner `nil` records that a type must be read with Mirror.
    /// Types are never unloaded, so the cache holds one entry per configuration type.
    static let cache = Cache()

    /// Plans by type, behind a lock. Looked up on every request: a type found before is found
    /// again in one of 64 slots chosen by its metadata's address — a load and a comparison —
    /// before the dictionary, whose hashing costs more than the rest of the look-up.
    ///
    /// `@unchecked Sendable`: its state is only touched with the lock held, and the plans it
    /// hands out are never changed after they are made.
    final class Cache: @unchecked Sendable {
        /// A cached answer: the plan, or `nil` for a type that must be read with Mirror.
        struct Entry {
            let plan: FieldPlan?
        }

        private struct State {
            var entries: [ObjectIdentifier: Entry] = [:]
            var slots = [(key: ObjectIdentifier, entry: Entry)?](repeating: nil, count: 64)
        }

        private let state = Locked(State())

        func lookUp(_ key: ObjectIdentifier) -> Entry? {
            // Metadata is at least 16-byte aligned: the bits above the fourth choose the slot.
            let slot = Int(truncatingIfNeeded: UInt(bitPattern: key) >> 4) & 63
            return state.withLock { state in
                if let found = state.slots[slot], found.key == key { return found.entry }
                guard let entry = state.entries[key] else { return nil }
                state.slots[slot] = (key, entry)
                return entry
            }
        }

        func store(_ plan: FieldPlan?, for key: ObjectIdentifier) {
            state.withLock { $0.entries[key] = Entry(plan: plan) }
        }
    }
}
