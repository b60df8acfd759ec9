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

    struct Header: Equatable {
        var name: String
        var value: String
    }

    /// The value of the header `name`, compared case-insensitively; several lines of it joined
    /// with commas.
    func header(_ name: String) -> String? {
        var found: String?
        for header in headers where header.name.caseInsensitiveCompare(name) == .orderedSame {
            found = found.map { "\($0), \(header.value)" } ?? header.value
        }
        return found
    }

    /// The headers as a dictionary for `HTTPURLResponse`.
    var headerFields: [String: String] {
        var fields: [String: String] = [:]
        for header in headers {
            if let existing = fields.first(where: { $0.key.caseInsensitiveCompare(header.name) == .orderedSame }) {
                fields[existing.key] = "\(existing.value), \(header.value)"
            } else {
                fields[header.name] = header.value
            }
        }
        return fields
    }
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
    init?(decoding data: Data) {
        var reader = RecordReader(data)
        guard reader.bytes(count: Self.magic.count) == Self.magic, let count = reader.integer(), count >= 0 else {
            return nil
        }
        var variants: [StoredResponse] = []
        for _ in 0..<min(count, Self.maxVariants) {
            guard let partition = reader.countedBytes(), let nameCount = reader.integer(), nameCount >= 0,
                nameCount <= 1024
            else { return nil }
            var names: [String] = []
            for _ in 0..<nameCount {
                guard let name = reader.string() else { return nil }
                names.append(name)
            }
            guard let fingerprint = reader.countedBytes(), let requestTime = reader.double(),
                let responseTime = reader.double(), let url = reader.string(), let status = reader.integer(),
                let headerCount = reader.integer(), headerCount >= 0, headerCount <= 10_000
            else { return nil }
            var headers: [StoredResponse.Header] = []
            for _ in 0..<headerCount {
                guard let name = reader.string(), let value = reader.string() else { return nil }
                headers.append(.init(name: name, value: value))
            }
            guard let body = reader.data() else { return nil }
            variants.append(
                StoredResponse(
                    partition: partition, varyNames: names, varyFingerprint: fingerprint,
                    requestTime: Date(timeIntervalSince1970: requestTime),
                    responseTime: Date(timeIntervalSince1970: responseTime), url: url, status: status,
                    headers: headers, body: body))
        }
        guard count <= Self.maxVariants, reader.atEnd else { return nil }
        self.variants = variants
    }
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

/// Reads what ``RecordWriter`` wrote; every read checks the bytes are there.
private struct RecordReader {
    private let input: Data
    private var offset: Int

    init(_ input: Data) {
        self.input = input
        self.offset = input.startIndex
    }

    var atEnd: Bool { offset == input.endIndex }

    mutating func bytes(count: Int) -> [UInt8]? {
        guard count >= 0, input.endIndex - offset >= count else { return nil }
        defer { offset += count }
        return Array(input[offset..<offset + count])
    }

    mutating func integer() -> Int? {
        guard let raw = bytes(count: 8) else { return nil }
        let value = raw.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(exactly: Int64(bitPattern: value))
    }

    mutating func double() -> Double? {
        guard let raw = bytes(count: 8) else { return nil }
        return Double(bitPattern: raw.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    mutating func countedBytes() -> [UInt8]? {
        guard let count = integer() else { return nil }
        return bytes(count: count)
    }

    mutating func string() -> String? {
        countedBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    mutating func data() -> Data? {
        guard let count = integer(), count >= 0, input.endIndex - offset >= count else { return nil }
        defer { offset += count }
        return Data(input[offset..<offset + count])
    }
}
