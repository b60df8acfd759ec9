import APIKitTestSupport
import Testing

@testable import APIKit

@Suite("DuplicateKeys: the one search for repeated JSON keys, path names and header names")
struct DuplicateKeysTests {
    private func search(_ keys: [String], caseInsensitive: Bool = false) -> (Int, Int)? {
        DuplicateKeys.first(count: keys.count, caseInsensitive: caseInsensitive) { keys[$0] }
    }

    /// The pairwise reference: the first key with an earlier twin, and that twin's first occurrence.
    private func reference(_ keys: [String], equal: (String, String) -> Bool = { $0 == $1 }) -> (Int, Int)? {
        for index in keys.indices {
            for earlier in 0..<index where equal(keys[earlier], keys[index]) { return (earlier, index) }
        }
        return nil
    }

    @Test("few and many keys: the same pair as comparing every pair in order", arguments: [3, 32, 33, 64])
    func samePairAsPairwise(count: Int) {
        var generator = SeededGenerator(seed: UInt64(count))
        for _ in 0..<200 {
            // Keys of one to three letters from a small alphabet, so that some collide.
            let keys = (0..<count).map { _ in
                String(
                    (0..<Int.random(in: 1...3, using: &generator)).map { _ in "ab".randomElement(using: &generator)! })
            }
            let found = search(keys)
            let expected = reference(keys)
            #expect(found?.0 == expected?.0 && found?.1 == expected?.1, "keys \(keys)")
        }
        let unique = (0..<count).map { "key\($0)" }
        #expect(search(unique) == nil)
        #expect(search(unique + ["key0"])! == (0, count))
    }

    @Test("keys equal under Unicode canonical equivalence are duplicates, as with ==", arguments: [2, 40])
    func canonicalEquivalence(count: Int) {
        let keys = (0..<(count - 2)).map { "k\($0)" } + ["caf\u{E9}", "cafe\u{301}"]
        let found = search(keys)
        #expect(found?.0 == count - 2 && found?.1 == count - 1)
    }

    @Test("header names: ASCII case is ignored, the same pair as pairwise, few and many", arguments: [3, 32, 33, 64])
    func caseInsensitive(count: Int) {
        var generator = SeededGenerator(seed: UInt64(count) + 1)
        for _ in 0..<200 {
            let keys = (0..<count).map { _ in
                String(
                    (0..<Int.random(in: 1...3, using: &generator)).map { _ in "aAb".randomElement(using: &generator)! })
            }
            let found = search(keys, caseInsensitive: true)
            let expected = reference(keys, equal: HTTPSyntax.namesEqual)
            #expect(found?.0 == expected?.0 && found?.1 == expected?.1, "keys \(keys)")
        }
        let unique = (0..<count).map { "X-Key\($0)" }
        #expect(search(unique, caseInsensitive: true) == nil)
        #expect(search(unique + ["x-key1"], caseInsensitive: true)! == (1, count))
    }
}
