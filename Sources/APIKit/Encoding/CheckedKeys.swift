/// The keys — header names or JSON member keys — of one kind of field in a configuration
/// type, whose value-independent checks passed once, when the type's field plan was made.
///
/// Keys are declared (`@JSON("title")`), so they are nearly always the same string literals
/// in every value of a type; but a wrapper's key is stored in each value, and may differ.
/// A request whose keys are the *same strings* as the checked ones — the same 16 bytes: for
/// a literal, the address of its text; for any other string, its storage, which is kept
/// alive here so that it is never reused — has the same verdicts: comparing the bytes costs
/// a few instructions a key, where checking them again costs hundreds. Any other request is
/// checked in full.
struct CheckedKeys {
    /// The bytes of a `String` value: equal for the same string, never for two strings made
    /// apart (see above).
    struct Identity: Equatable {
        var low: UInt64
        var high: UInt64

        init(at pointer: UnsafeRawPointer) {
            low = pointer.loadUnaligned(as: UInt64.self)
            high = pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        }

        @inline(__always)
        init(_ key: String) {
            self = withUnsafeBytes(of: key) { Identity(at: $0.baseAddress!) }
        }
    }

    /// The checked keys: holding them keeps their storage, and so their identity, theirs.
    let keys: [String]
    private let identities: [Identity]

    /// `nil` where a `String` is not 16 bytes, the layout compared here.
    init?(_ keys: [String]) {
        guard MemoryLayout<String>.size == 2 * MemoryLayout<UInt64>.size else { return nil }
        self.keys = keys
        identities = keys.map { key in withUnsafeBytes(of: key) { Identity(at: $0.baseAddress!) } }
    }

    /// Whether the keys are, in order, among the checked keys — each the same string as a
    /// checked key, later ones after earlier ones — so that they have the checked keys'
    /// verdicts: valid, and distinct from one another. How the serializer reads the keys a
    /// configuration declared, some of its fields having declared none (a `nil` header).
    ///
    /// - Parameter key: The key at a position.
    @inline(__always)
    func coversInOrder(count: Int, key: (Int) -> String) -> Bool {
        var next = 0
        for index in 0..<count {
            let identity = Identity(key(index))
            while next < identities.count, identities[next] != identity { next += 1 }
            guard next < identities.count else { return false }
            next += 1
        }
        return true
    }

    /// Whether the keys stored at `base + offsets[i]` are the checked keys, in order.
    @inline(__always)
    func match(at base: UnsafeRawPointer, _ items: [FieldPlan.Item]) -> Bool {
        guard items.count == identities.count else { return false }
        for index in items.indices
        where Identity(at: base + items[index].offset + items[index].keyOffset) != identities[index] {
            return false
        }
        return true
    }
}
