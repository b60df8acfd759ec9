/// Where an ``HTTPCache`` keeps what it stores: records of bytes under string keys.
///
/// The cache decides what a record holds — every stored variant of one URL, head and body —
/// and writes it as bytes, so a store only keeps bytes: ``MemoryCacheStore`` in memory,
/// ``DiskCacheStore`` in a directory, or a store of your own (in a database, say). A key is 64
/// lowercase hexadecimal digits, safe as a file name; it does not reveal the URL or any
/// credential.
///
/// A store may drop any record at any time (to keep within a size limit): the cache then asks
/// the server again. A record it cannot keep, or cannot read back whole, is best left out: the
/// cache treats bytes it cannot read as absent and removes them. Calls come from many tasks at
/// once; a store serialises them as it needs. A write or a removal has taken effect when its
/// call returns: a read that starts after it sees it. The cache counts on that to keep an
/// invalidation from being undone by a write of a response fetched before it.
///
/// ```swift
/// final class PrintingStore: HTTPCacheStore {
///     let inner = MemoryCacheStore()
///     func record(forKey key: String) async -> Data? {
///         let record = await inner.record(forKey: key)
///         print(record == nil ? "no record for \(key)" : "\(record!.count) bytes for \(key)")
///         return record
///     }
///     func setRecord(_ record: Data, forKey key: String) async { await inner.setRecord(record, forKey: key) }
///     func removeRecord(forKey key: String) async { await inner.removeRecord(forKey: key) }
/// }
/// ```
public protocol HTTPCacheStore: Sendable {
    /// The record stored under `key`, or `nil` when there is none.
    ///
    /// - Parameter key: The record's key.
    /// - Returns: The bytes last stored under `key`, unless removed since.
    func record(forKey key: String) async -> Data?

    /// Stores `record` under `key`, replacing what was there; the store may decline (a record
    /// larger than it holds) or drop other records to make room.
    ///
    /// - Parameters:
    ///   - record: The bytes to keep.
    ///   - key: The record's key.
    func setRecord(_ record: Data, forKey key: String) async

    /// Removes the record stored under `key`, if any.
    ///
    /// - Parameter key: The record's key.
    func removeRecord(forKey key: String) async
}
