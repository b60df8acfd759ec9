/// The strategy one value is written with: the field's members, the request's where the
/// field states none, and the defaults where neither does.
///
/// The static members resolve one member each: every place that needs only one — the field
/// plan deciding whether a `nil` is declared at all, the direct writers — asks them, so that
/// the rule is written here alone. They take the members, not whole strategies: copying a
/// strategy copies its date encoding, which may hold a closure.
struct ResolvedStrategy {
    var arrays: ArrayEncoding
    var nesting: NestingEncoding
    var bools: BoolEncoding
    var dates: DateEncoding
    var nils: NilEncoding

    init(field: EncodingStrategy, request: EncodingStrategy) {
        arrays = Self.arrays(field: field.arrays, request: request.arrays)
        nesting = field.nesting ?? request.nesting ?? .brackets
        bools = Self.bools(field: field.bools, request: request.bools)
        dates = field.dates ?? request.dates ?? .iso8601
        nils = Self.nils(field: field.nils, request: request.nils)
    }

    @inline(__always)
    static func arrays(field: ArrayEncoding?, request: ArrayEncoding?) -> ArrayEncoding {
        field ?? request ?? .repeatKey
    }

    @inline(__always)
    static func bools(field: BoolEncoding?, request: BoolEncoding?) -> BoolEncoding {
        field ?? request ?? .literal
    }

    /// How `nil` is written. A value whose strategy is ``NilEncoding/omit`` writes nothing
    /// anywhere, so the readings need not declare it.
    @inline(__always)
    static func nils(field: NilEncoding?, request: NilEncoding?) -> NilEncoding {
        field ?? request ?? .omit
    }
}
