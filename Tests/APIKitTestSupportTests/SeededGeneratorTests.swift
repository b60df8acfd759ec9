import APIKitTestSupport
import Testing

/// The sequences are what a printed seed replays (`APIKIT_ROUNDTRIP_SEED`), so they must never change.
@Suite("SeededGenerator")
struct SeededGeneratorTests {
    /// Seeds and the first three values SplitMix64 gives for each (seed 0 is the reference
    /// implementation's published example).
    static let pinned: [(seed: UInt64, first: [UInt64])] = [
        (0, [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F]),
        (0x5EED, [0x09F1_FD9D_03F0_A9B4, 0x5532_7416_1BBF_8475, 0x5D5B_CA46_96B3_43B3]),
        (.max, [0xE4D9_7177_1B65_2C20, 0xE99F_F867_DBF6_82C9, 0x382F_F84C_B272_81E9]),
    ]

    @Test("the first values are SplitMix64's for the seed", arguments: pinned)
    func pinnedSequence(pinned: (seed: UInt64, first: [UInt64])) {
        var generator = SeededGenerator(seed: pinned.seed)
        #expect((0..<pinned.first.count).map { _ in generator.next() } == pinned.first)
    }

    @Test("equal seeds replay equal draws; a copy continues where the original stood")
    func replay() {
        var first = SeededGenerator(seed: 42)
        var second = SeededGenerator(seed: 42)
        let drawn = (0..<100).map { _ in Int.random(in: 0..<1000, using: &first) }
        #expect(drawn == (0..<100).map { _ in Int.random(in: 0..<1000, using: &second) })
        var copy = first
        #expect(first.next() == copy.next())
        var again = SeededGenerator(seed: 42)
        var other = SeededGenerator(seed: 43)
        #expect((0..<8).map { _ in other.next() } != (0..<8).map { _ in again.next() })
    }
}
