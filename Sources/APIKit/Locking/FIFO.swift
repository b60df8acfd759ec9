/// A first-in, first-out queue kept in one array, for a state behind a lock: a stream's chunks
/// waiting for their reader, a host's calls waiting for a slot.
///
/// Taking the first element moves a head index and lets go of the element at once (a chunk's
/// bytes, a resumed continuation); the slots already taken are dropped once they make half of
/// the array, at a cost spread over the takes. A queue that never quite empties so keeps only
/// what still waits.
struct FIFO<Element> {
    private var slots: [Element?] = []
    private var head = 0

    /// Whether nothing waits.
    var isEmpty: Bool { head == slots.count }

    /// The element that waited longest, if any.
    var first: Element? { isEmpty ? nil : slots[head] }

    /// The slots the array holds, those taken and not yet dropped included.
    var storedCount: Int { slots.count }

    mutating func append(_ element: Element) {
        slots.append(element)
    }

    /// Takes the element that waited longest.
    mutating func removeFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = slots[head]
        slots[head] = nil
        head += 1
        compact()
        return element
    }

    /// Takes the first element that `matches`, wherever it waits.
    mutating func removeFirst(where matches: (Element) -> Bool) -> Element? {
        guard let index = slots[head...].firstIndex(where: { $0.map(matches) ?? false }) else { return nil }
        defer { compact() }
        return slots.remove(at: index)
    }

    /// Drops every element.
    mutating func removeAll() {
        slots.removeAll()
        head = 0
    }

    /// Drops the slots taken once they are all of the array, or half of it.
    private mutating func compact() {
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 16, head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
    }
}
