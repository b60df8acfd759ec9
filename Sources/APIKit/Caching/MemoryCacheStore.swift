/// An ``HTTPCacheStore`` in memory, with a limit on the bytes it holds: when a new record would
/// pass it, the records used least recently go first.
///
/// A record counts its bytes (head and body); reading a record counts as using it. A record
/// larger than the limit is not kept. Safe to use from any task; what it holds is lost with the
/// process.
///
/// ```swift
/// let cache = HTTPCache(store: MemoryCacheStore(maxBytes: 20 * 1024 * 1024))
/// let api = Session(interceptors: [cache])
/// ```
public final class MemoryCacheStore: HTTPCacheStore {
    /// The most bytes the records hold together.
    let maxBytes: Int
    private let state: Locked<LRUState>

    /// A store that holds at most `maxBytes` bytes of records.
    ///
    /// - Parameter maxBytes: The limit, 10 MiB by default; 0 or less keeps nothing.
    public init(maxBytes: Int = 10 * 1024 * 1024) {
        self.maxBytes = maxBytes
        self.state = Locked(LRUState())
    }

    /// The record under `key`, which becomes the most recently used.
    ///
    /// - Parameter key: The record's key.
    /// - Returns: The record, or `nil`.
    public func record(forKey key: String) async -> Data? {
        state.withLock { $0.use(key) }
    }

    /// Keeps `record` under `key` as the most recently used, dropping the least recently used
    /// records until all fit; a record larger than `maxBytes` is not kept (and the one it
    /// replaces is removed).
    ///
    /// - Parameters:
    ///   - record: The bytes.
    ///   - key: The record's key.
    public func setRecord(_ record: Data, forKey key: String) async {
        state.withLock { state in
            state.remove(key)
            guard record.count <= maxBytes else { return }
            while state.totalBytes + record.count > maxBytes, let oldest = state.oldestKey {
                state.remove(oldest)
            }
            state.insert(record, forKey: key)
        }
    }

    /// Removes the record under `key`.
    ///
    /// - Parameter key: The record's key.
    public func removeRecord(forKey key: String) async {
        state.withLock { $0.remove(key) }
    }

    /// The bytes held, all records together.
    var totalBytes: Int { state.withLock { $0.totalBytes } }
    /// The keys held, least recently used first.
    var keysByUse: [String] { state.withLock { $0.keysByUse } }
}

extension MemoryCacheStore: DecodingCacheStore {
    /// The record under `key` decoded, which becomes the most recently used; decoded once, on
    /// its first read, and kept with its bytes (its bodies are slices of them).
    func decodedRecord(forKey key: String) -> StoredRecord?? {
        guard let (data, decoded) = state.withLock({ $0.useDecoded(key) }) else { return nil }
        if let decoded { return .some(decoded) }
        let record = StoredRecord(decoding: data)
        if let record { state.withLock { $0.keep(record, decodedFrom: data, forKey: key) } }
        return .some(record)
    }
}

/// Records in a doubly linked list by use, threaded through the dictionary by key: every
/// operation is one or two dictionary look-ups.
private struct LRUState {
    struct Node {
        var data: Data
        /// What `data` decodes to, once read by ``MemoryCacheStore/decodedRecord(forKey:)``.
        var decoded: StoredRecord?
        var older: String?
        var newer: String?
    }

    var nodes: [String: Node] = [:]
    var oldestKey: String?
    var newestKey: String?
    var totalBytes = 0

    mutating func use(_ key: String) -> Data? {
        useDecoded(key)?.data
    }

    /// The record under `key` and what it decodes to, if known; it becomes the newest.
    mutating func useDecoded(_ key: String) -> (data: Data, decoded: StoredRecord?)? {
        guard let node = nodes[key] else { return nil }
        if newestKey != key {
            unlink(key, node)
            link(key, node.data, decoded: node.decoded)
        }
        return (node.data, node.decoded)
    }

    /// Keeps `record` as what the record under `key` decodes to, if that record is still `data`.
    mutating func keep(_ record: StoredRecord, decodedFrom data: Data, forKey key: String) {
        guard nodes[key]?.data == data else { return }
        nodes[key]?.decoded = record
    }

    mutating func insert(_ data: Data, forKey key: String) {
        link(key, data, decoded: nil)
        totalBytes += data.count
    }

    mutating func remove(_ key: String) {
        guard let node = nodes[key] else { return }
        unlink(key, node)
        totalBytes -= node.data.count
    }

    var keysByUse: [String] {
        var keys: [String] = []
        var key = oldestKey
        while let current = key {
            keys.append(current)
            key = nodes[current]?.newer
        }
        return keys
    }

    /// Adds `key` as the newest.
    private mutating func link(_ key: String, _ data: Data, decoded: StoredRecord?) {
        nodes[key] = Node(data: data, decoded: decoded, older: newestKey, newer: nil)
        if let newest = newestKey { nodes[newest]?.newer = key }
        newestKey = key
        if oldestKey == nil { oldestKey = key }
    }

    private mutating func unlink(_ key: String, _ node: Node) {
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldestKey = node.newer }
        if let newer = node.newer { nodes[newer]?.older = node.older } else { newestKey = node.older }
        nodes[key] = nil
    }
}
