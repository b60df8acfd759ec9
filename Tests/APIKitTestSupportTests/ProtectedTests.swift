import APIKitTestSupport
import Foundation
import Testing

@Suite("Protected")
struct ProtectedTests {
    @Test("increments from many threads are all kept")
    func concurrentIncrements() {
        let count = Protected(0)
        DispatchQueue.concurrentPerform(iterations: 10_000) { _ in
            count.withLock { $0 += 1 }
        }
        #expect(count.value == 10_000)
    }

    @Test("withLock returns what its body returns and rethrows what it throws")
    func returnsAndRethrows() {
        struct Boom: Error {}
        let list = Protected([1])
        let count = list.withLock { list in
            list.append(2)
            return list.count
        }
        #expect(count == 2)
        #expect(throws: Boom.self) { try list.withLock { _ in throw Boom() } }
        #expect(list.value == [1, 2])
    }

    @Test("append keeps every element, in the order each thread added its own")
    func concurrentAppends() {
        let list = Protected<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for step in 0..<1000 { list.append(worker * 1000 + step) }
        }
        let all = list.value
        #expect(all.count == 4000)
        #expect(Set(all).count == 4000)
        for worker in 0..<4 {
            let own = all.filter { $0 / 1000 == worker }
            #expect(own == Array(worker * 1000..<(worker + 1) * 1000))
        }
    }
}
