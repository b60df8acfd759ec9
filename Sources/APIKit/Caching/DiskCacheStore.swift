#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// An ``HTTPCacheStore`` in a directory: what it holds survives a restart of the app, and a
/// crash in the middle of a write never leaves a record that reads back wrong.
///
/// Each record is one file, written whole to a temporary file in the same directory and then
/// renamed over the old one, so a reader sees the old record or the new one, never half of
/// each. Each file carries its length and a checksum of its bytes: a file cut short or
/// damaged (by a crash, a full disk, another program) reads as no record and is deleted, and
/// the cache asks the server again.
///
/// Like ``MemoryCacheStore`` it holds at most `maxBytes` bytes (files together) and drops the
/// least recently used records first; after a restart, the order of use starts from the files'
/// modification dates. A record larger than the limit is not kept. A directory that cannot be
/// created or written keeps nothing: the cache then works as if every record had been dropped.
/// The directory belongs to the store: one store per directory, and no other files in it.
///
/// ```swift
/// let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
/// let store = DiskCacheStore(directory: caches.appendingPathComponent("api"), maxBytes: 50 * 1024 * 1024)
/// let api = Session(interceptors: [HTTPCache(store: store)])
/// ```
public final class DiskCacheStore: HTTPCacheStore {
    /// The directory the records are kept in.
    let directory: URL
    /// The most bytes the record files hold together.
    let maxBytes: Int
    private let index = Locked(DiskIndex())
    /// The directory's path with a trailing `/`: a record's path is this and its file name
    /// (``filePath(_:)``), without a `URL` made and parsed for each use.
    private let directoryPath: String

    /// A store in `directory`, created when first written to, holding at most `maxBytes` bytes.
    ///
    /// - Parameters:
    ///   - directory: Where the records are kept; the store's alone.
    ///   - maxBytes: The limit, 50 MiB by default; 0 or less keeps nothing.
    public init(directory: URL, maxBytes: Int = 50 * 1024 * 1024) {
        self.directory = directory
        self.maxBytes = maxBytes
        let path = directory.path
        directoryPath = path.hasSuffix("/") ? path : path + "/"
    }

    /// The record under `key`, or `nil` when there is none or its file does not read back
    /// whole (the file is then deleted).
    ///
    /// - Parameter key: The record's key.
    /// - Returns: The record, or `nil`.
    public func record(forKey key: String) async -> Data? {
        let name = Self.fileName(key)
        loadIndexIfNeeded()
        guard let file = FileManager.default.contents(atPath: filePath(name)) else {
            index.withLock { $0.remove(name) }
            return nil
        }
        guard let record = DiskEntry.payload(of: file) else {
            try? FileManager.default.removeItem(atPath: filePath(name))
            index.withLock { $0.remove(name) }
            return nil
        }
        index.withLock { $0.use(name, size: file.count) }
        return record
    }

    /// Writes `record` under `key` (to a temporary file, renamed over the old one), then drops
    /// the least recently used records until all fit in `maxBytes`.
    ///
    /// - Parameters:
    ///   - record: The bytes.
    ///   - key: The record's key.
    public func setRecord(_ record: Data, forKey key: String) async {
        let name = Self.fileName(key)
        let entry = DiskEntry.file(for: record)
        loadIndexIfNeeded()
        guard entry.count <= maxBytes, write(entry, to: name) else {
            remove(name)
            return
        }
        let evicted = index.withLock { index -> [String] in
            index.use(name, size: entry.count)
            return index.evict(toFit: maxBytes, keeping: name)
        }
        for old in evicted { try? FileManager.default.removeItem(atPath: filePath(old)) }
    }

    /// Deletes the record under `key`.
    ///
    /// - Parameter key: The record's key.
    public func removeRecord(forKey key: String) async {
        loadIndexIfNeeded()
        remove(Self.fileName(key))
    }

    /// The bytes of the record files, as the store counts them.
    var totalBytes: Int { index.withLock { $0.totalBytes } }

    private func remove(_ name: String) {
        try? FileManager.default.removeItem(atPath: filePath(name))
        index.withLock { $0.remove(name) }
    }

    /// Writes `entry` to a temporary file and renames it to `name`; `false` when either fails.
    private func write(_ entry: Data, to name: String) -> Bool {
        let temporary = directory.appendingPathComponent("\(DiskIndex.temporaryPrefix)\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try entry.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return false
        }
        // rename(2) replaces the destination atomically, where FileManager.moveItem refuses to.
        guard rename(temporary.path, filePath(name)) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            return false
        }
        return true
    }

    /// The path of the record file `name`.
    private func filePath(_ name: String) -> String {
        directoryPath + name
    }

    /// The file name of `key`: the key itself when it is what ``HTTPCache`` makes (hexadecimal
    /// digits), else its SHA-256, so that no key can name a path outside the directory.
    static func fileName(_ key: String) -> String {
        func isHexDigits(_ bytes: some Collection<UInt8>) -> Bool {
            !bytes.isEmpty && bytes.count <= 128
                && bytes.allSatisfy { byte in
                    switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): true
                    default: false
                    }
                }
        }
        let isHex = key.utf8.withContiguousStorageIfAvailable(isHexDigits) ?? isHexDigits(key.utf8)
        return (isHex ? key : SHA256.hex(key)) + DiskIndex.fileExtension
    }

    /// Reads the directory once: the record files' sizes and dates, and temporary files left by
    /// a write that never finished, which are deleted.
    private func loadIndexIfNeeded() {
        guard !index.withLock({ $0.isLoaded }) else { return }
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let files =
            (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        var found: [(name: String, size: Int, date: Date)] = []
        for file in files {
            let name = file.lastPathComponent
            let values = try? file.resourceValues(forKeys: Set(keys))
            let date = values?.contentModificationDate ?? .distantPast
            if name.hasPrefix(DiskIndex.temporaryPrefix) {
                // Another process may be writing it right now: only an old one is left over.
                if date.timeIntervalSinceNow < -60 { try? FileManager.default.removeItem(at: file) }
            } else if name.hasSuffix(DiskIndex.fileExtension) {
                found.append((name, values?.fileSize ?? 0, date))
            }
        }
        index.withLock { index in
            guard !index.isLoaded else { return }
            index.load(found.sorted { $0.date < $1.date }.map { ($0.name, $0.size) })
        }
    }
}

/// A record file: `AKD2`, the payload's length (8 bytes, little-endian), its checksum (FNV-1a
/// over 64-bit words), then the payload. A file that does not start so reads as no record.
enum DiskEntry {
    private static let magic = Array("AKD2".utf8)
    private static let headerSize = 20

    static func file(for payload: Data) -> Data {
        var file = Data(magic)
        file.reserveCapacity(headerSize + payload.count)
        withUnsafeBytes(of: UInt64(payload.count).littleEndian) { file.append(contentsOf: $0) }
        withUnsafeBytes(of: checksum(payload).littleEndian) { file.append(contentsOf: $0) }
        file.append(payload)
        return file
    }

    /// The payload of `file`, or `nil` when it is not whole: read, checked and copied out in
    /// one pass over the file's bytes.
    static func payload(of file: Data) -> Data? {
        file.withUnsafeBytes { bytes -> Data? in
            guard bytes.count >= headerSize, bytes.prefix(4).elementsEqual(magic) else { return nil }
            let length = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
            let sum = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
            let payload = UnsafeRawBufferPointer(rebasing: bytes[headerSize...])
            guard length == UInt64(payload.count), checksum(payload) == sum else { return nil }
            return Data(payload)
        }
    }

    /// The checksum of `data`'s bytes.
    static func checksum(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { checksum($0) }
    }

    /// FNV-1a's step, 64 bits, over the bytes read as little-endian 64-bit words (the last
    /// few bytes one by one): one multiplication per 8 bytes, where a byte at a time waits on
    /// one per byte. Each step is a bijection of the running value, so a changed byte always
    /// changes the result. Not a defence against an attacker who can write the directory (they
    /// could write any response), but a torn or damaged file fails it.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            hash = (hash ^ word) &* prime
            offset += 8
        }
        while offset < bytes.count {
            hash = (hash ^ UInt64(bytes[offset])) &* prime
            offset += 1
        }
        return hash
    }
}

/// The record files by use, oldest first, and their sizes.
private struct DiskIndex {
    static let fileExtension = ".apikitcache"
    static let temporaryPrefix = ".tmp-"

    var isLoaded = false
    /// Each record file's size and the moment of its last use (a count that only grows).
    private var entries: [String: (size: Int, lastUse: UInt64)] = [:]
    private var uses: UInt64 = 0
    private(set) var totalBytes = 0

    mutating func load(_ files: [(name: String, size: Int)]) {
        isLoaded = true
        for file in files { use(file.name, size: file.size) }
    }

    /// Records a use of `name`, now `size` bytes: one look-up, whatever the number of records.
    mutating func use(_ name: String, size: Int) {
        uses += 1
        let old = entries.updateValue((size, uses), forKey: name)
        totalBytes += size - (old?.size ?? 0)
    }

    mutating func remove(_ name: String) {
        guard let old = entries.removeValue(forKey: name) else { return }
        totalBytes -= old.size
    }

    /// Forgets the least recently used records (but `keeping`) until the rest fit; returns them.
    /// Each one dropped is found by one look over the records: a write into a full store
    /// usually drops one.
    mutating func evict(toFit limit: Int, keeping: String) -> [String] {
        var evicted: [String] = []
        while totalBytes > limit,
            let oldest = entries.lazy.filter({ $0.key != keeping }).min(by: { $0.value.lastUse < $1.value.lastUse })
        {
            remove(oldest.key)
            evicted.append(oldest.key)
        }
        return evicted
    }
}
