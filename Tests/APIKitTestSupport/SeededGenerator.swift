/// A small deterministic random number generator (SplitMix64), so that a failing input can be
/// replayed from the seed printed with it.
///
/// The one seeded generator of the test targets. Its sequence for a seed must not change:
/// `GeneratedRoundTripTests` prints its seed and replays it with `APIKIT_ROUNDTRIP_SEED`, and
/// `HostileBodyTests` prints the seed of a failing run. `SeededGeneratorTests` pins the first
/// values for a few seeds.
///
/// ```swift
/// var generator = SeededGenerator(seed: 0x5EED)
/// let index = Int.random(in: 0..<10, using: &generator)  // the same for every run
/// ```
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    ///
    /// - Parameter seed: Any value; equal seeds give equal sequences.
    public init(seed: UInt64) { state = seed }

    /// The next value of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
