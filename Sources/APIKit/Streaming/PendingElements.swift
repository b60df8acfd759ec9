/// The elements decoded from the last chunk that an iterator has not handed out yet, and
/// whether more can come: the buffer of ``DecodedResponseStream`` and
/// ``ReconnectingServerSentEvents``, whose decoders turn one chunk into any number of elements.
struct PendingElements<Element> {
    private var elements: [Element] = []
    private var index = 0
    /// Set once nothing more will be decoded: the body ended, or an error was thrown.
    var isEnded = false

    /// The next element not handed out yet; `nil` once all are (the buffer is then emptied, its
    /// storage kept for the next chunk's elements).
    mutating func next() -> Element? {
        if index < elements.count {
            defer { index += 1 }
            return elements[index]
        }
        elements.removeAll(keepingCapacity: true)
        index = 0
        return nil
    }

    /// Replaces the handed-out elements with those of the next chunk.
    mutating func refill(_ decoded: [Element]) {
        elements = decoded
        index = 0
    }

    /// Whether no element is left to hand out; read right after ``refill(_:)``: whether the
    /// chunk decoded to none.
    var isEmpty: Bool { elements.count == index }
}
