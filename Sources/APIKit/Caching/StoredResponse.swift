/// One response the cache keeps: its head and body, when it was asked for and received (for
/// its age, RFC 9111 §4.2.3), and what selects it among the variants of its URL (§4.1): the
/// credential it was fetched with and the request headers its `Vary` names.
///
/// Neither the credential nor the varied header values are kept in clear: only their SHA-256
/// digests, enough to tell whether a new request carries the same ones.
struct StoredResponse: Equatable {
    /// The SHA-256 of the request's `Authorization`, empty without one.
    var partition: [UInt8]
    /// The request headers `Vary` names: lowercased, in the order listed, without duplicates.
    var varyNames: [String]
    /// The digest of the request's values of ``varyNames`` (``CacheKey/varyFingerprint(of:names:)``).
    var varyFingerprint: [UInt8]
    /// When the request that brought the response (or its last validation) was sent.
    var requestTime: Date
    /// When its response arrived.
    var responseTime: Date
    /// The response's URL.
    var url: String
    var status: Int
    /// The response headers, as received (names as written).
    var headers: [Header]
    var body: Data
    /// What the head was last read to, for a hit that reads the same head again.
    let memo = HeadMemo()

    struct Header: Equatable {
        var name: String
        var value: String
    }

    /// The value of the header `name`, compared case-insensitively; several lines of it joined
    /// with commas.
    func header(_ name: String) -> String? {
        Self.header(name, in: headers)
    }

    /// The value of the header `name` in `headers`, compared case-insensitively; several lines
    /// of it joined with commas.
    static func header(_ name: String, in headers: [Header]) -> String? {
        var found: String?
        for header in headers where FieldName.same(header.name, name) {
            found = found.map { "\($0), \(header.value)" } ?? header.value
        }
        return found
    }

    /// The body as a response's data: bytes of its own, indexed from 0 (``body`` read from a
    /// record is a slice of the record's bytes).
    var responseBody: Data {
        guard body.startIndex != 0 else { return body }
        return body.withUnsafeBytes { bytes in bytes.baseAddress.map { Data(bytes: $0, count: bytes.count) } ?? Data() }
    }

    /// The fields every hit reads (``HeadReading``), read once for these headers.
    var reading: HeadReading {
        memo.reading(of: headers)
    }

    /// The directives of the response's `Cache-Control`.
    var directives: CacheControl {
        reading.directives
    }

    /// The headers as a dictionary for `HTTPURLResponse`: several of one name (in any case)
    /// joined with commas under the first one's name.
    var headerFields: [String: String] {
        var fields: [String: String] = [:]
        for header in headers {
            if let existing = fields.first(where: { FieldName.same($0.key, header.name) }) {
                fields[existing.key] = "\(existing.value), \(header.value)"
            } else {
                fields[header.name] = header.value
            }
        }
        return fields
    }

    /// The head of the response served with `Age: age` and `cacheStatus` as its `Cache-Status`
    /// marker: the head built for the last hit when that had the same ones (a head is
    /// immutable, and hits in the same second have the same `Age`), else one `make` builds.
    func servedHead(age: String, cacheStatus: String, make: () -> HTTPURLResponse) -> HTTPURLResponse {
        memo.servedHead(of: self, age: age, cacheStatus: cacheStatus, make: make)
    }
}

/// The header fields of a stored response that every hit reads: its `Cache-Control` and what
/// its age and freshness lifetime are computed from (RFC 9111 §4.2).
struct HeadReading {
    var directives: CacheControl
    var date: String?
    var age: String?
    var expires: String?
    var lastModified: String?

    init(_ headers: [StoredResponse.Header]) {
        directives = CacheControl(StoredResponse.header("Cache-Control", in: headers))
        date = StoredResponse.header("Date", in: headers)
        age = StoredResponse.header("Age", in: headers)
        expires = StoredResponse.header("Expires", in: headers)
        lastModified = StoredResponse.header("Last-Modified", in: headers)
    }
}

/// What a stored response's head reads to — the fields every hit reads, the `HTTPURLResponse`
/// it was last served with — kept for the next hit that reads the same.
///
/// Shared by the copies of the response (a ``MemoryCacheStore`` hands out the same decoded
/// response for every hit), each entry is kept with what it was made from and used only for
/// the same input, so a copy changed since (a 304's freshened headers) never reads another's.
/// (Comparing the headers of a copy that was not changed costs little: the arrays share their
/// storage.)
final class HeadMemo: Equatable, Sendable {
    private struct Entries {
        var reading: (headers: [StoredResponse.Header], reading: HeadReading)?
        var served:
            (
                headers: [StoredResponse.Header], url: String, status: Int, age: String, cacheStatus: String,
                head: HTTPURLResponse
            )?
    }

    private let entries = Locked(Entries())

    /// The fields every hit reads of `headers`.
    func reading(of headers: [StoredResponse.Header]) -> HeadReading {
        if let last = entries.withLock({ $0.reading }), last.headers == headers { return last.reading }
        let reading = HeadReading(headers)
        entries.withLock { $0.reading = (headers, reading) }
        return reading
    }

    /// The head `stored` was last served with when that had the same `age` and `cacheStatus`,
    /// else the one `make` builds, kept for the next.
    func servedHead(
        of stored: StoredResponse, age: String, cacheStatus: String, make: () -> HTTPURLResponse
    ) -> HTTPURLResponse {
        if let last = entries.withLock({ $0.served }), last.age == age, last.cacheStatus == cacheStatus,
            last.status == stored.status, last.url == stored.url, last.headers == stored.headers
        {
            return last.head
        }
        let head = make()
        entries.withLock { $0.served = (stored.headers, stored.url, stored.status, age, cacheStatus, head) }
        return head
    }

    /// A memo of a value's own head, not part of the value: any two are equal.
    static func == (lhs: HeadMemo, rhs: HeadMemo) -> Bool { true }
}

/// Every stored variant of one URL: the value a ``HTTPCacheStore`` keeps under one key,
/// written as bytes so that any store — in memory, on disk — keeps it alike.
struct StoredRecord: Equatable {
    var variants: [StoredResponse]

    /// The most variants kept for one URL; the oldest go first.
    static let maxVariants = 16
    private static let magic: [UInt8] = Array("AKC1".utf8)

    init(variants: [StoredResponse]) {
        self.variants = variants
    }

    /// The record under `key` in `store`: `nil` when there is none, `.some(nil)` when its bytes
    /// are no record. A ``DecodingCacheStore`` (`decoding`, the same store) hands it over decoded,
    /// without a suspension.
    static func load(
        from store: any HTTPCacheStore, decoding: (any DecodingCacheStore)?, key: String
    ) async -> StoredRecord?? {
        if let decoding { return decoding.decodedRecord(forKey: key) }
        guard let data = await store.record(forKey: key) else { return nil }
        return .some(StoredRecord(decoding: data))
    }

    /// The record's bytes.
    func encoded() -> Data {
        var writer = RecordWriter()
        writer.bytes(Self.magic[...], counted: false)
        writer.integer(variants.count)
        for variant in variants {
            writer.bytes(variant.partition[...])
            writer.integer(variant.varyNames.count)
            for name in variant.varyNames { writer.string(name) }
            writer.bytes(variant.varyFingerprint[...])
            writer.double(variant.requestTime.timeIntervalSince1970)
            writer.double(variant.responseTime.timeIntervalSince1970)
            writer.string(variant.url)
            writer.integer(variant.status)
            writer.integer(variant.headers.count)
            for header in variant.headers {
                writer.string(header.name)
                writer.string(header.value)
            }
            writer.data(variant.body)
        }
        return writer.output
    }

    /// The record `data` holds, or `nil` when it is not one this version wrote in full: a
    /// store's damaged or foreign entry is treated as absent.
    ///
    /// Each body is a slice of `data`, sharing its bytes (``StoredResponse/responseBody`` is a
    /// body of its own).
    init?(decoding data: Data) {
        let read = data.withUnsafeBytes { bytes in
            Self.variants(in: RecordReader(bytes, base: data.startIndex), of: data)
        }
        guard let variants = read else { return nil }
        self.variants = variants
    }

    private static func variants(in reader: RecordReader, of data: Data) -> [StoredResponse]? {
        var reader = reader
        guard reader.hasMagic(Self.magic), let count = reader.integer(), count >= 0, count <= Self.maxVariants else {
            return nil
        }
        var variants: [StoredResponse] = []
        variants.reserveCapacity(count)
        for _ in 0..<count {
            guard let partition = reader.countedBytes(), let nameCount = reader.integer(), nameCount >= 0,
                nameCount <= 1024
            else { return nil }
            var names: [String] = []
            names.reserveCapacity(nameCount)
            for _ in 0..<nameCount {
                guard let name = reader.string() else { return nil }
                names.append(name)
            }
            guard let fingerprint = reader.countedBytes(), let requestTime = reader.double(),
                let responseTime = reader.double(), let url = reader.string(), let status = reader.integer(),
                let headerCount = reader.integer(), headerCount >= 0, headerCount <= 10_000
            else { return nil }
            var headers: [StoredResponse.Header] = []
            headers.reserveCapacity(headerCount)
            for _ in 0..<headerCount {
                guard let name = reader.string(), let value = reader.string() else { return nil }
                headers.append(.init(name: name, value: value))
            }
            guard let body = reader.range() else { return nil }
            variants.append(
                StoredResponse(
                    partition: partition, varyNames: names, varyFingerprint: fingerprint,
                    requestTime: Date(timeIntervalSince1970: requestTime),
                    responseTime: Date(timeIntervalSince1970: responseTime), url: url, status: status,
                    headers: headers, body: data[body]))
        }
        return reader.atEnd ? variants : nil
    }
}

/// A store that keeps each record it holds decoded beside its bytes, so that reading one
/// decodes nothing (``MemoryCacheStore``); what it hands over is what decoding its bytes gives.
protocol DecodingCacheStore: HTTPCacheStore {
    /// The record under `key`, decoded: `nil` when there is none, `.some(nil)` when its bytes
    /// are no record. Answered from memory, without waiting.
    func decodedRecord(forKey key: String) -> StoredRecord??
}

/// Writes a record: integers as 8 bytes little-endian, strings and byte runs after their length.
private struct RecordWriter {
    var output = Data()

    mutating func integer(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { output.append(contentsOf: $0) }
    }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { output.append(contentsOf: $0) }
    }

    mutating func bytes(_ bytes: ArraySlice<UInt8>, counted: Bool = true) {
        if counted { integer(bytes.count) }
        output.append(contentsOf: bytes)
    }

    mutating func string(_ text: String) {
        bytes(Array(text.utf8)[...])
    }

    mutating func data(_ data: Data) {
        integer(data.count)
        output.append(data)
    }
}

/// Reads what ``RecordWriter`` wrote, in place; every read checks the bytes are there.
private struct RecordReader {
    private let input: UnsafeRawBufferPointer
    /// The index in the record's `Data` of the first byte of `input`.
    private let base: Int
    private var offset = 0

    init(_ input: UnsafeRawBufferPointer, base: Int) {
        self.input = input
        self.base = base
    }

    var atEnd: Bool { offset == input.count }

    mutating func hasMagic(_ magic: [UInt8]) -> Bool {
        guard input.count - offset >= magic.count, input[offset..<offset + magic.count].elementsEqual(magic)
        else { return false }
        offset += magic.count
        return true
    }

    /// The next `count` bytes, as positions in `input`.
    private mutating func take(_ count: Int) -> Range<Int>? {
        guard count >= 0, input.count - offset >= count else { return nil }
        defer { offset += count }
        return offset..<offset + count
    }

    private mutating func word() -> UInt64? {
        guard let range = take(8) else { return nil }
        return UInt64(littleEndian: input.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self))
    }

    mutating func integer() -> Int? {
        word().flatMap { Int(exactly: Int64(bitPattern: $0)) }
    }

    mutating func double() -> Double? {
        word().map(Double.init(bitPattern:))
    }

    mutating func countedBytes() -> [UInt8]? {
        guard let count = integer(), let range = take(count) else { return nil }
        return Array(input[range])
    }

    mutating func string() -> String? {
        guard let count = integer(), let range = take(count) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: input[range]), as: UTF8.self)
    }

    /// The positions in the record's `Data` of a counted run of bytes.
    mutating func range() -> Range<Int>? {
        guard let count = integer(), let range = take(count) else { return nil }
        return base + range.lowerBound..<base + range.upperBound
    }
}
