/// The elements decoded from the last chunk that an iterator has not handed out yet, the error
/// that came after them, and whether more can come: the buffer of ``DecodingReader`` and
/// ``ReconnectingEventReader``, whose decoders turn one chunk into any number of elements.
struct PendingElements<Element> {
    private var elements: [Element] = []
    private var index = 0
    /// What to throw once the elements are handed out: the chunk's bytes stopped making sense.
    private var failure: RequestError?
    /// Set once nothing more will be decoded: the body ended, or an error was (or will be) thrown.
    var isEnded = false

    /// The next element not handed out yet; `nil` once all are (the buffer is then emptied, its
    /// storage kept for the next chunk's elements).
    ///
    /// - Throws: The error given to ``refill(_:thenThrow:)``, once, after the last element.
    mutating func next() throws(RequestError) -> Element? {
        if index < elements.count {
            defer { index += 1 }
            return elements[index]
        }
        elements.removeAll(keepingCapacity: true)
        index = 0
        if let failure {
            self.failure = nil
            throw failure
        }
        return nil
    }

    /// Replaces the handed-out elements with those of the next chunk.
    mutating func refill(_ decoded: [Element]) {
        elements = decoded
        index = 0
    }

    /// Replaces the handed-out elements with those of the next chunk, which ended in `failure`:
    /// the elements are handed out first, then `failure` is thrown, and nothing comes after it.
    mutating func refill(_ decoded: [Element], thenThrow failure: RequestError) {
        refill(decoded)
        self.failure = failure
        isEnded = true
    }

    /// Whether no element is left to hand out; read right after ``refill(_:)``: whether the
    /// chunk decoded to none.
    var isEmpty: Bool { elements.count == index }
}
