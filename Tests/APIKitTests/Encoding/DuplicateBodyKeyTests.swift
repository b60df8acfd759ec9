import APIKitTestSupport
import Testing

@testable import APIKit

@Suite("Duplicate JSON body keys")
struct DuplicateBodyKeyTests {
    private func members(_ keys: [String]) -> [DeclaredParameters.Declared<BodyParameter>] {
        keys.enumerated().map { index, key in
            .init(field: "f\(index)", parameter: BodyParameter(key: key, value: index, encoding: .json))
        }
    }

    /// The pairwise reference: the first member with an earlier twin, and that twin's first occurrence.
    private func reference(_ keys: [String]) -> (Int, Int)? {
        for index in keys.indices {
            for earlier in 0..<index where keys[earlier] == keys[index] { return (earlier, index) }
        }
        return nil
    }

    @Test("few and many members: the same pair as comparing every pair in order", arguments: [3, 32, 33, 64])
    func samePairAsPairwise(count: Int) {
        var generator = SeededGenerator(seed: UInt64(count))
        for _ in 0..<200 {
            // Keys of one to three letters from a small alphabet, so that some collide.
            let keys = (0..<count).map { _ in
                String(
                    (0..<Int.random(in: 1...3, using: &generator)).map { _ in "ab".randomElement(using: &generator)! })
            }
            let found = URLRequestSerializer.firstDuplicateKey(members(keys))
            let expected = reference(keys)
            #expect(found?.0 == expected?.0 && found?.1 == expected?.1, "keys \(keys)")
        }
        let unique = (0..<count).map { "key\($0)" }
        #expect(URLRequestSerializer.firstDuplicateKey(members(unique)) == nil)
        #expect(URLRequestSerializer.firstDuplicateKey(members(unique + ["key0"]))! == (0, count))
    }

    @Test("keys equal under Unicode canonical equivalence are duplicates, as with ==", arguments: [2, 40])
    func canonicalEquivalence(count: Int) {
        let keys = (0..<(count - 2)).map { "k\($0)" } + ["caf\u{E9}", "cafe\u{301}"]
        let found = URLRequestSerializer.firstDuplicateKey(members(keys))
        #expect(found?.0 == count - 2 && found?.1 == count - 1)
    }
}
