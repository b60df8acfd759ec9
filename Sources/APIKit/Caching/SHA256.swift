/// SHA-256 (FIPS 180-4), for the cache's keys and credential partitions: a stable digest the
/// same in every process (a store on disk outlives the process), that does not keep a
/// credential or a URL in clear, and whose collisions no one can make on purpose (one user's
/// response is never served to another). Foundation on Linux has no digest of its own, and the
/// root package takes no dependency.
struct SHA256 {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// The bytes of the block being filled, fewer than 64.
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    /// The digest of `bytes`, 32 bytes.
    static func digest<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `text`'s UTF-8, as 64 lowercase hexadecimal digits.
    static func hex(_ text: String) -> String {
        digest(text.utf8).hex
    }

    mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        guard done == nil else { return }
        update(Array(bytes))
    }

    private mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Fills the block buffer and compresses each whole block; whole blocks of `bytes` are read
    /// in place.
    private mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !buffer.isEmpty {
            let taken = rest.prefix(64 - buffer.count)
            buffer.append(contentsOf: taken)
            rest = rest.dropFirst(taken.count)
            guard buffer.count == 64 else { return }
            let block = buffer
            block.withUnsafeBytes { compress($0) }
            buffer.removeAll(keepingCapacity: true)
        }
        while rest.count >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        buffer.append(contentsOf: rest)
    }

    mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = buffer
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> shift)) }
        tail.withUnsafeBytes { bytes in
            for start in stride(from: 0, to: bytes.count, by: 64) {
                compress(UnsafeRawBufferPointer(rebasing: bytes[start..<start + 64]))
            }
        }
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        return [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
            for (index, word) in words.enumerated() {
                digest[index * 4] = UInt8(truncatingIfNeeded: word >> 24)
                digest[index * 4 + 1] = UInt8(truncatingIfNeeded: word >> 16)
                digest[index * 4 + 2] = UInt8(truncatingIfNeeded: word >> 8)
                digest[index * 4 + 3] = UInt8(truncatingIfNeeded: word)
            }
            count = 32
        }
    }

    /// One round of the compression function over a block of 64 bytes.
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for t in 0..<16 {
                let index = t * 4
                w[t] =
                    UInt32(block[index]) << 24 | UInt32(block[index + 1]) << 16 | UInt32(block[index + 2]) << 8
                    | UInt32(block[index + 3])
            }
            for t in 16..<64 {
                let s0 = w[t - 15].rotatedRight(7) ^ w[t - 15].rotatedRight(18) ^ (w[t - 15] >> 3)
                let s1 = w[t - 2].rotatedRight(17) ^ w[t - 2].rotatedRight(19) ^ (w[t - 2] >> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            Self.k.withUnsafeBufferPointer { k in
                for t in 0..<64 {
                    let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choice = (e & f) ^ (~e & g)
                    let temp1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
                    let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let temp2 = s0 &+ majority
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
                }
            }
            state.0 &+= a
            state.1 &+= b
            state.2 &+= c
            state.3 &+= d
            state.4 &+= e
            state.5 &+= f
            state.6 &+= g
            state.7 &+= h
        }
    }

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}

extension [UInt8] {
    /// Lowercase hexadecimal digits, two per byte.
    var hex: String {
        String(unsafeUninitializedCapacity: count * 2) { text in
            let digits: StaticString = "0123456789abcdef"
            for (index, byte) in enumerated() {
                text[index * 2] = digits.utf8Start[Int(byte >> 4)]
                text[index * 2 + 1] = digits.utf8Start[Int(byte & 0x0f)]
            }
            return count * 2
        }
    }
}
