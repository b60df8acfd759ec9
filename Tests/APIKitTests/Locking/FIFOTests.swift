import Testing

@testable import APIKit

@Suite("FIFO: first in, first out; taken slots let go and dropped")
struct FIFOTests {
    /// An element whose release the test can see.
    private final class Element {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test("Elements come out in the order they went in; a removal by match takes the first match")
    func order() {
        var queue = FIFO<Int>()
        #expect(queue.isEmpty && queue.removeFirst() == nil && queue.first == nil)
        for number in 1...5 { queue.append(number) }
        #expect(queue.first == 1)
        #expect(queue.removeFirst() == 1)
        #expect(queue.removeFirst(where: { $0 % 2 == 0 }) == 2)
        #expect(queue.removeFirst(where: { $0 == 9 }) == nil)
        queue.append(6)
        var rest: [Int] = []
        while let number = queue.removeFirst() { rest.append(number) }
        #expect(rest == [3, 4, 5, 6])
        #expect(queue.isEmpty && queue.storedCount == 0)
    }

    @Test("A queue that never empties keeps about what still waits; a taken element is let go at once")
    func neverEmpty() {
        var queue = FIFO<Element>()
        queue.append(Element(0))
        weak var taken: Element?
        do {
            let first = queue.removeFirst()
            taken = first
            #expect(first?.number == 0)
        }
        #expect(taken == nil, "the queue keeps a taken element")
        queue.append(Element(1))
        for number in 2..<1_000 {
            queue.append(Element(number))
            #expect(queue.removeFirst()?.number == number - 1)
            #expect(queue.storedCount <= 2 * 16 + 2, "\(queue.storedCount) slots for one waiting")
        }
        queue.removeAll()
        #expect(queue.isEmpty && queue.storedCount == 0)
    }
}
