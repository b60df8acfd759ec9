import Foundation
import Testing

@testable import APIKit

extension Caching {
    @Suite("SHA-256: the digest behind cache keys and credential partitions")
    struct SHA256Tests {
        @Test(
            "The FIPS 180-4 examples",
            arguments: [
                ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
                ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
                (
                    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
                ),
            ])
        func examples(text: String, digest: String) {
            #expect(SHA256.hex(text) == digest)
        }

        @Test("Input fed in pieces digests like the whole, across block boundaries")
        func pieces() {
            let bytes = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let whole = SHA256.digest(bytes)
            for split in [0, 1, 55, 56, 63, 64, 65, 128, 200] {
                var hasher = SHA256()
                hasher.update(bytes[..<split])
                hasher.update(bytes[split...])
                #expect(hasher.finalize() == whole, "split at \(split)")
            }
            var lazy = SHA256()
            lazy.update(bytes.lazy.map { $0 })
            #expect(lazy.finalize() == whole, "bytes without contiguous storage")
        }
    }
}
