import Foundation
import Testing

@testable import APIKit

extension Caching {
    @Suite("RecordWrites: an invalidation voids the write-backs of the exchanges it overlaps")
    struct RecordWritesTests {
        @Test("A ticket out when an invalidation starts, or taken before it ends, is overtaken; one taken after is not")
        func overlaps() async {
            let writes = RecordWrites()
            let before = writes.begin("a")
            let other = writes.begin("b")
            let during = Locked<RecordWrites.Ticket?>(nil)
            await writes.invalidate("a") {
                #expect(writes.isOvertaken(before))
                during.withLock { $0 = writes.begin("a") }
            }
            let after = writes.begin("a")
            #expect(writes.isOvertaken(before))
            #expect(writes.isOvertaken(during.withLock { $0 }!), "taken while the record was being removed")
            #expect(!writes.isOvertaken(after))
            #expect(!writes.isOvertaken(other), "another key's exchange")
            for ticket in [before, other, during.withLock { $0 }!, after] { writes.end(ticket) }
        }

        @Test("Two invalidations of one key at once: a ticket taken until the last ends is overtaken")
        func nestedInvalidations() async {
            let writes = RecordWrites()
            let late = Locked<RecordWrites.Ticket?>(nil)
            await writes.invalidate("a") {
                await writes.invalidate("a") {}
                late.withLock { $0 = writes.begin("a") }
            }
            #expect(writes.isOvertaken(late.withLock { $0 }!))
            #expect(!writes.isOvertaken(writes.begin("a")))
        }

        @Test("Tickets given back out of order: an invalidation's mark stays while a ticket older than it is out")
        func outOfOrder() async {
            let writes = RecordWrites()
            let oldest = writes.begin("a")
            await writes.invalidate("a") {}
            let middle = writes.begin("b")
            await writes.invalidate("b") {}
            let newest = writes.begin("b")
            writes.end(middle)
            #expect(writes.isOvertaken(oldest), "the mark of a stays while the oldest ticket is out")
            #expect(!writes.isOvertaken(newest), "taken after b's invalidation ended")
            writes.end(oldest)
            #expect(!writes.isOvertaken(newest))
            #expect(!writes.isEmpty, "one ticket out")
            writes.end(newest)
            #expect(writes.isEmpty)
        }

        @Test("Tickets given back and invalidations ended leave nothing behind")
        func forgets() async {
            let writes = RecordWrites()
            for index in 0..<100 {
                let ticket = writes.begin("key \(index)")
                await writes.invalidate("key \(index)") {}
                writes.end(ticket)
            }
            #expect(writes.isEmpty)
        }
    }
}
