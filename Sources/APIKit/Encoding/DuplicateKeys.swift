/// Finds the first key that an earlier one repeats: the one duplicate search behind every
/// check of distinct keys — JSON members, path placeholders and header names, whichever
/// reading declared them.
enum DuplicateKeys {
    /// The first key whose value an earlier key already has, and the first key with that
    /// value, by position; `nil` when the keys are distinct.
    ///
    /// Up to 32 keys are compared pairwise, which costs less than hashing them; more go
    /// through a dictionary, so that the cost grows linearly with the number of keys. Both
    /// compare as `String`'s `==` does (canonical equivalence: `"caf\u{E9}"` is
    /// `"cafe\u{301}"`), or, with `caseInsensitive`, as HTTP compares header names
    /// (``HTTPSyntax/namesEqual(_:_:)``).
    ///
    /// - Parameters:
    ///   - count: How many keys there are.
    ///   - caseInsensitive: Whether keys differing only in ASCII case are the same.
    ///   - key: The key at a position; inlined, so that keys are compared where they are stored.
    @inline(__always)
    static func first(count: Int, caseInsensitive: Bool = false, key: (Int) -> String) -> (earlier: Int, later: Int)? {
        if count <= 32 {
            for later in 0..<count {
                for earlier in 0..<later
                where caseInsensitive ? HTTPSyntax.namesEqual(key(earlier), key(later)) : key(earlier) == key(later) {
                    return (earlier, later)
                }
            }
            return nil
        }
        var first: [String: Int] = Dictionary(minimumCapacity: count)
        for later in 0..<count {
            let hashed = caseInsensitive ? HTTPSyntax.lowercased(key(later)) : key(later)
            // `updateValue` replaced the first occurrence: the pair is found, stop here.
            if let earlier = first.updateValue(later, forKey: hashed) { return (earlier, later) }
        }
        return nil
    }
}
