import Foundation
import Testing

@testable import APIKit

extension Caching {
    @Suite("Memory store: a byte limit, least recently used out first")
    struct MemoryCacheStoreTests {
        private static func bytes(_ count: Int) -> Data { Data(repeating: 7, count: count) }

        @Test("Records read back; replacing and removing change the count of bytes")
        func basics() async {
            let store = MemoryCacheStore(maxBytes: 100)
            #expect(await store.record(forKey: "a") == nil)
            await store.setRecord(Self.bytes(10), forKey: "a")
            #expect(await store.record(forKey: "a") == Self.bytes(10))
            await store.setRecord(Self.bytes(30), forKey: "a")
            #expect(store.totalBytes == 30)
            await store.removeRecord(forKey: "a")
            await store.removeRecord(forKey: "missing")
            #expect(await store.record(forKey: "a") == nil)
            #expect(store.totalBytes == 0)
        }

        @Test("A record is handed over decoded, as its bytes decode; new bytes under the key are decoded anew")
        func decoded() async throws {
            let store = MemoryCacheStore()
            #expect(store.decodedRecord(forKey: "a") == nil)
            let record = StoredRecordTests.record
            await store.setRecord(record.encoded(), forKey: "a")
            #expect(store.decodedRecord(forKey: "a") == .some(record))
            #expect(store.decodedRecord(forKey: "a") == .some(record))
            let other = StoredRecord(variants: [record.variants[1]])
            await store.setRecord(other.encoded(), forKey: "a")
            #expect(store.decodedRecord(forKey: "a") == .some(other))
            #expect(await store.record(forKey: "a") == other.encoded())
            await store.setRecord(Data("not a record".utf8), forKey: "a")
            #expect(store.decodedRecord(forKey: "a") == .some(nil))
            await store.removeRecord(forKey: "a")
            #expect(store.decodedRecord(forKey: "a") == nil)
        }

        @Test("Over the limit, the least recently used records go first; reading counts as using")
        func eviction() async {
            let store = MemoryCacheStore(maxBytes: 100)
            await store.setRecord(Self.bytes(40), forKey: "a")
            await store.setRecord(Self.bytes(40), forKey: "b")
            _ = await store.record(forKey: "a")
            #expect(store.keysByUse == ["b", "a"])
            await store.setRecord(Self.bytes(40), forKey: "c")
            #expect(store.keysByUse == ["a", "c"])
            #expect(await store.record(forKey: "b") == nil)
            await store.setRecord(Self.bytes(100), forKey: "d")
            #expect(store.keysByUse == ["d"])
            #expect(store.totalBytes == 100)
        }

        @Test("A record larger than the limit is not kept, and removes the one it replaces")
        func oversized() async {
            let store = MemoryCacheStore(maxBytes: 10)
            await store.setRecord(Self.bytes(5), forKey: "a")
            await store.setRecord(Self.bytes(11), forKey: "a")
            #expect(await store.record(forKey: "a") == nil)
            #expect(store.totalBytes == 0)
            let nothing = MemoryCacheStore(maxBytes: 0)
            await nothing.setRecord(Data(), forKey: "empty")
            await nothing.setRecord(Self.bytes(1), forKey: "one")
            #expect(await nothing.record(forKey: "one") == nil)
        }

        @Test("Concurrent readers and writers leave a consistent list")
        func concurrent() async {
            let store = MemoryCacheStore(maxBytes: 1_000)
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for step in 0..<200 {
                            let key = "k\((task * 7 + step) % 30)"
                            if step % 3 == 0 {
                                await store.removeRecord(forKey: key)
                            } else {
                                await store.setRecord(Self.bytes(step % 50), forKey: key)
                                _ = await store.record(forKey: "k\(step % 30)")
                            }
                        }
                    }
                }
            }
            #expect(store.totalBytes <= 1_000)
            var total = 0
            for key in store.keysByUse { total += await store.record(forKey: key)?.count ?? 0 }
            #expect(total == store.totalBytes)
        }
    }
}
