import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

extension Caching {
    @Suite("Disk store: atomic writes, checksums, a byte limit, and records that survive a restart")
    struct DiskCacheStoreTests {
        private static func bytes(_ count: Int, _ value: UInt8 = 7) -> Data { Data(repeating: value, count: count) }

        private static func files(in directory: URL) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        }

        @Test("Records read back, also from a new store on the same directory")
        func survivesRestart() async throws {
            let scratch = try ScratchDirectory()
            let directory = scratch.url.appendingPathComponent("cache")
            let store = DiskCacheStore(directory: directory, maxBytes: 1_000)
            #expect(await store.record(forKey: "aa") == nil, "no directory yet")
            await store.setRecord(Self.bytes(10), forKey: "aa")
            await store.setRecord(Self.bytes(20, 1), forKey: "aa")
            #expect(await store.record(forKey: "aa") == Self.bytes(20, 1))
            let restarted = DiskCacheStore(directory: directory, maxBytes: 1_000)
            #expect(await restarted.record(forKey: "aa") == Self.bytes(20, 1))
            await restarted.removeRecord(forKey: "aa")
            #expect(await store.record(forKey: "aa") == nil)
            #expect(Self.files(in: directory).isEmpty)
        }

        @Test("A file cut short at any length, or with a byte changed, reads as no record and is deleted")
        func tornAndDamagedFiles() async throws {
            let scratch = try ScratchDirectory()
            let store = DiskCacheStore(directory: scratch.url)
            let record = Data((0..<64).map { UInt8($0) })
            await store.setRecord(record, forKey: "ab")
            let file = scratch.url.appendingPathComponent("ab.apikitcache")
            let whole = try Data(contentsOf: file)
            var damaged: [Data] = (0..<whole.count).map { whole.prefix($0) }
            for index in [0, 5, 13, 25, whole.count - 1] {
                var copy = whole
                copy[index] ^= 0x01
                damaged.append(copy)
            }
            damaged.append(whole + [0])
            for bytes in damaged {
                try bytes.write(to: file)
                #expect(await store.record(forKey: "ab") == nil)
                #expect(!FileManager.default.fileExists(atPath: file.path), "the damaged file is deleted")
            }
            await store.setRecord(record, forKey: "ab")
            #expect(await store.record(forKey: "ab") == record, "the store repairs itself with the next write")
        }

        @Test("The checksum changes with any one bit of the payload, in its words and in its last bytes")
        func checksumSeesEveryBit() throws {
            // 67 bytes: eight 64-bit words and three bytes after them
            let payload = Data((0..<67).map { UInt8(truncatingIfNeeded: $0 &* 37) })
            let sum = DiskEntry.checksum(payload)
            for index in payload.indices {
                for bit in 0..<8 {
                    var changed = payload
                    changed[index] ^= 1 << bit
                    #expect(DiskEntry.checksum(changed) != sum, "byte \(index), bit \(bit)")
                }
            }
            #expect(DiskEntry.payload(of: DiskEntry.file(for: payload)) == payload)
            let slice = (Data([9, 9, 9]) + DiskEntry.file(for: payload)).dropFirst(3)
            #expect(DiskEntry.payload(of: slice) == payload, "a file's bytes read from a slice")
        }

        @Test("Over the limit the least recently used records go; a record larger than the limit is not kept")
        func eviction() async throws {
            let scratch = try ScratchDirectory()
            // Each file is the record plus a 20-byte header.
            let store = DiskCacheStore(directory: scratch.url, maxBytes: 150)
            await store.setRecord(Self.bytes(40), forKey: "a1")
            await store.setRecord(Self.bytes(40), forKey: "a2")
            _ = await store.record(forKey: "a1")
            await store.setRecord(Self.bytes(40), forKey: "a3")
            #expect(await store.record(forKey: "a2") == nil)
            #expect(await store.record(forKey: "a1") != nil)
            #expect(await store.record(forKey: "a3") != nil)
            #expect(store.totalBytes == 120)
            #expect(Self.files(in: scratch.url) == ["a1.apikitcache", "a3.apikitcache"])
            await store.setRecord(Self.bytes(200), forKey: "a1")
            #expect(await store.record(forKey: "a1") == nil)
            #expect(Self.files(in: scratch.url) == ["a3.apikitcache"])
        }

        @Test("One write over the limit drops as many records as it takes, least recently used first")
        func evictionOfSeveral() async throws {
            let scratch = try ScratchDirectory()
            // files of 60 bytes (40 + the header), 200 at most
            let store = DiskCacheStore(directory: scratch.url, maxBytes: 200)
            for key in ["b1", "b2", "b3"] { await store.setRecord(Self.bytes(40), forKey: key) }
            _ = await store.record(forKey: "b1")
            await store.setRecord(Self.bytes(40), forKey: "b4")
            #expect(Self.files(in: scratch.url) == ["b1.apikitcache", "b3.apikitcache", "b4.apikitcache"])
            _ = await store.record(forKey: "b3")
            // 100 bytes (a 120-byte file): b1 and b4, used longest ago, go; b3 stays
            await store.setRecord(Self.bytes(100), forKey: "b5")
            #expect(Self.files(in: scratch.url) == ["b3.apikitcache", "b5.apikitcache"])
            #expect(store.totalBytes == 180)
            await store.setRecord(Self.bytes(10), forKey: "b5")
            #expect(store.totalBytes == 90, "a record written again counts its new size")
        }

        @Test("A key that is not hexadecimal cannot name a path outside the directory")
        func foreignKeys() async throws {
            let scratch = try ScratchDirectory()
            let directory = scratch.url.appendingPathComponent("inner")
            let store = DiskCacheStore(directory: directory)
            for key in ["../escape", "/etc/passwd", "", "ABC", String(repeating: "a", count: 200)] {
                await store.setRecord(Self.bytes(3), forKey: key)
                #expect(await store.record(forKey: key) == Self.bytes(3))
            }
            #expect(Self.files(in: scratch.url) == ["inner"])
            #expect(Self.files(in: directory).count == 5)
        }

        @Test("Old temporary files of an interrupted write are deleted; other files are left alone")
        func leftovers() async throws {
            let scratch = try ScratchDirectory()
            let old = try scratch.file(".tmp-interrupted", contents: Self.bytes(5))
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: old.path)
            _ = try scratch.file(".tmp-recent", contents: Self.bytes(5))
            _ = try scratch.file("notes.txt", contents: Self.bytes(5))
            let store = DiskCacheStore(directory: scratch.url)
            #expect(await store.record(forKey: "ff") == nil)
            #expect(Self.files(in: scratch.url) == [".tmp-recent", "notes.txt"])
        }

        @Test("A directory that cannot be written keeps nothing, and the cache still answers from the network")
        func unwritable() async throws {
            let scratch = try ScratchDirectory()
            let blocker = try scratch.file("file", contents: Data())
            let store = DiskCacheStore(directory: blocker.appendingPathComponent("cache"))
            await store.setRecord(Self.bytes(3), forKey: "aa")
            #expect(await store.record(forKey: "aa") == nil)
        }

        @Test("A write whose rename fails keeps nothing under its key, leaves no temporary file, and counts no bytes")
        func renameFails() async throws {
            let scratch = try ScratchDirectory()
            let store = DiskCacheStore(directory: scratch.url, maxBytes: 1_000)
            await store.setRecord(Self.bytes(10), forKey: "aa")
            let kept = store.totalBytes
            // rename(2) cannot replace a directory that holds a file
            let blocker = scratch.url.appendingPathComponent("bb.apikitcache")
            try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
            _ = try Data("x".utf8).write(to: blocker.appendingPathComponent("inside"))
            await store.setRecord(Self.bytes(20), forKey: "bb")
            #expect(await store.record(forKey: "bb") == nil)
            #expect(Self.files(in: scratch.url) == ["aa.apikitcache"])
            #expect(store.totalBytes == kept)
            #expect(await store.record(forKey: "aa") == Self.bytes(10))
            await store.setRecord(Self.bytes(20), forKey: "bb")
            #expect(await store.record(forKey: "bb") == Self.bytes(20), "the next write succeeds")
        }

        /// A record for the key numbered `key`, written at `step`: its first byte names the key,
        /// every other byte the step, and its length follows the step.
        private static func record(key: Int, step: Int) -> Data {
            Data([UInt8(key)]) + Data(repeating: UInt8(step % 251), count: 8 + step % 40)
        }

        /// Whether `data` is a whole record of `record(key:step:)` for `key`.
        private static func isWholeRecord(_ data: Data, key: Int) -> Bool {
            guard data.count >= 9, data.first == UInt8(key), let step = data.last else { return false }
            return data.dropFirst().allSatisfy { $0 == step } && data.count == 9 + Int(step) % 40
        }

        @Test("Concurrent readers, writers and removers: every read is a whole record of its key, and the index heals")
        func concurrent() async throws {
            let scratch = try ScratchDirectory()
            let store = DiskCacheStore(directory: scratch.url, maxBytes: 400)
            let keys = (0..<10).map { String(format: "a%x", $0) }
            let torn = Locked(0)
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for step in 0..<120 {
                            let key = (task * 3 + step) % keys.count
                            switch step % 4 {
                            case 0: await store.removeRecord(forKey: keys[key])
                            case 1, 2: await store.setRecord(Self.record(key: key, step: step), forKey: keys[key])
                            default:
                                if let read = await store.record(forKey: keys[key]), !Self.isWholeRecord(read, key: key)
                                {
                                    torn.withLock { $0 += 1 }
                                }
                            }
                        }
                    }
                }
            }
            #expect(torn.withLock { $0 } == 0, "a read returned a record cut short or of another key")
            var kept: [String: Data] = [:]
            for (number, key) in keys.enumerated() {
                guard let read = await store.record(forKey: key) else { continue }
                #expect(Self.isWholeRecord(read, key: number))
                kept[key] = read
            }
            let onDisk = Self.files(in: scratch.url).filter { !$0.hasPrefix(".") }
            let diskBytes = try onDisk.reduce(0) { total, name in
                total + (try Data(contentsOf: scratch.url.appendingPathComponent(name))).count
            }
            #expect(onDisk.count == kept.count, "no file the store does not know, none it lost")
            #expect(store.totalBytes == diskBytes, "after a read of every key the index counts what is on disk")
            let restarted = DiskCacheStore(directory: scratch.url, maxBytes: 400)
            for (key, record) in kept { #expect(await restarted.record(forKey: key) == record) }
        }

        @Test("Through HTTPCache: a damaged entry is served from the network and written again")
        func cacheRepairs() async throws {
            let scratch = try ScratchDirectory()
            let store = DiskCacheStore(directory: scratch.url)
            let time = ManualTime()
            let sent = Locked(0)
            let transport = StubTransport(time: time) { _ in
                let count = sent.withLock { count in
                    count += 1
                    return count
                }
                return .success(headers: ["Cache-Control": "max-age=60"], body: "v\(count)")
            }
            let session = Session(transport: transport, interceptors: [HTTPCache(store: store, time: time)])
                .timed(by: time)
            #expect(try await CacheCall().response(using: session).body == "v1")
            #expect(try await CacheCall().response(using: session).fromCache)
            let file = try #require(Self.files(in: scratch.url).first.map { scratch.url.appendingPathComponent($0) })
            let whole = try Data(contentsOf: file)
            try whole.prefix(whole.count / 2).write(to: file)
            let repaired = try await CacheCall().response(using: session)
            #expect(repaired.body == "v2")
            #expect(!repaired.fromCache)
            let again = try await CacheCall().response(using: session)
            #expect(again.body == "v2")
            #expect(again.fromCache)
        }
    }
}
